// docs/api/ is generated from the TSDoc by `npm run docs:api` (typedoc, then biome's formatter)
// and committed (notes/0014). This regenerates it into a scratch directory and fails when the
// committed copy is stale, or when typedoc warns (a broken {@link}, a public type that references
// one that is not exported).
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from '../examples/support.js';

// Inside the repository (biome formats only files of its project), in gitignored .tmp/.
const out = join(ROOT, '.tmp', `api-check-${process.pid}`);
mkdirSync(out, { recursive: true });
afterAll(() => rmSync(out, { recursive: true, force: true }));
const run = promisify(execFile);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

it('docs/api is what `npm run docs:api` generates from the current sources', async () => {
  const { stdout, stderr } = await run(
    join(ROOT, 'node_modules/.bin/typedoc'),
    ['--out', out, '--logLevel', 'Warn'],
    { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } },
  );
  expect(`${stdout}${stderr}`.trim(), 'typedoc warnings').toBe('');
  await run(
    join(ROOT, 'node_modules/.bin/biome'),
    ['format', '--write', '--vcs-use-ignore-file=false', out],
    { cwd: ROOT },
  );

  const committed = join(ROOT, 'docs/api');
  const stale = 'docs/api is stale: run `npm run docs:api` and commit docs/api';
  expect(files(committed), stale).toEqual(files(out));
  for (const file of files(out)) {
    expect(readFileSync(join(committed, file), 'utf8'), `${stale} (${file})`).toBe(
      readFileSync(join(out, file), 'utf8'),
    );
  }
}, 120_000);
