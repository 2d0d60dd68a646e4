// The property tests' seed (test/support/property-seed.ts): CI sets CHUNKLOG_FC_SEED from the
// commit, so that a fresh-clone run of .ci/run tries the cases CI will try; unset, each run draws.
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

describe('the property seed', () => {
  it('is CHUNKLOG_FC_SEED when set, and drawn by each run otherwise', () => {
    const seed = process.env.CHUNKLOG_FC_SEED;
    expect(fc.readConfigureGlobal().seed).toBe(
      seed === undefined || seed === '' ? undefined : Number(seed),
    );
  });

  it('makes two runs of a property draw the same cases', () => {
    // Two processes with one seed: the same first values.
    const draw = (seed: string) =>
      spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '-e',
          "import('./test/support/property-seed.ts').then(async () => { const fc = (await import('fast-check')).default; const seen = []; fc.assert(fc.property(fc.integer(), (n) => { seen.push(n); }), { numRuns: 5 }); console.log(JSON.stringify(seen)); });",
        ],
        { env: { ...process.env, CHUNKLOG_FC_SEED: seed }, encoding: 'utf8' },
      );
    const [a, b, c] = [draw('42'), draw('42'), draw('43')];
    expect([a.status, a.stderr]).toEqual([0, '']);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).not.toBe(c.stdout);
  });
});
