// examples/scripts: inspect, export and import from the command line, as a user runs them.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { POSTGRES_URL, postgresAvailable } from '../support/services.js';
import {
  EXAMPLE_TIMEOUT_MS,
  ensureBuilt,
  exampleEnv,
  ROOT,
  runExample,
  tempDir,
} from './support.js';

// Waits are margins load cannot reach, not measures of speed (see EXAMPLE_TIMEOUT_MS).
vi.setConfig({ testTimeout: EXAMPLE_TIMEOUT_MS, hookTimeout: EXAMPLE_TIMEOUT_MS });

const SCRIPT = 'examples/scripts/main.ts';
const temp = tempDir('scripts');

// The tour seeds .tmp/scripts.db once; the tests below read it (each spawn of Node costs
// seconds on a busy machine: no more of them than the tests need).
let tour = '';
beforeAll(async () => {
  ensureBuilt();
  tour = await run('tour');
});
afterAll(() => temp.remove());

async function run(...args: string[]) {
  const result = await runExample(SCRIPT, args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

describe('examples/scripts', () => {
  it('tours a seeded store: threads, pages, a turn, model messages, export and import twice', () => {
    const out = tour;
    expect(out).toContain('plan-example                              13');
    // keyset pages, newest first, each `before` the previous page's oldest seq
    expect(out).toContain('page 1  getChunks({ limit: 5 })  seqs 9–13 of 13, hasMore: true');
    expect(out).toContain(
      'page 2  getChunks({ limit: 5, before: 9 })  seqs 4–8 of 13, hasMore: true',
    );
    expect(out).toContain(
      'page 3  getChunks({ limit: 5, before: 4 })  seqs 1–3 of 13, hasMore: false',
    );
    expect(out).toContain('turn turn-1: 11 rows, seqs 1–11');
    expect(out).toMatch(
      /4 {2}assistant {2}system {7}\[model-changed\] Switched to claude-sonnet-4/,
    );
    // the model input leaves out system and error chunks and the reasoning before the switch
    const messages = out.slice(out.indexOf('── messages'), out.indexOf('── export'));
    expect(messages).not.toContain('Network error');
    expect(messages).not.toContain('Switched');
    expect(messages).not.toContain('I should explain X');
    expect(messages).toContain('Now I need to look at the source.');
    expect(out).toContain(
      'imported 2 turn(s) into copy: 13 row(s) written, every row kept its seq',
    );
    expect(out).toContain(
      'imported 0 turn(s) into copy: 0 row(s) written, 2 turn(s) already there, every row kept its seq',
    );
    expect(out).toContain(
      'exported 13 rows (2 turn(s)), read forwards 5 rows a page (getChunksAfter)',
    );
    expect(out).toContain('the copy holds the same rows, times included');
  });

  it('exports a thread from one SQLite file and imports it into another', async () => {
    const file = join(temp.dir, 'thread.jsonl');
    expect(await run('export', '.tmp/scripts.db', 'plan-example', file, '--limit', '4')).toContain(
      `exported 13 rows (2 turn(s)) of plan-example to ${file}`,
    );
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1 + 2 + 13 + 1); // header, two turn lines, rows, end
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      format: 'chunklog-thread',
      version: 1,
      thread: { id: 'plan-example', total: 13 },
    });
    const rowLines = lines.map((line) => JSON.parse(line)).filter((line) => line.kind === 'row');
    expect(rowLines.map((row) => row.seq)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
    expect(JSON.parse(lines.at(-1) as string)).toEqual({ kind: 'end', turns: 2, rows: 13 });

    const other = join(temp.dir, 'other.db');
    expect(await run('import', other, file)).toContain(
      'imported 2 turn(s) into plan-example: 13 row(s) written, every row kept its seq',
    );
    const again = join(temp.dir, 'again.jsonl');
    expect(await run('export', other, 'plan-example', again)).toContain('exported 13 rows');
    // Row for row, the times of the rows included (the import keeps each turn's createdAt).
    const rows = (path: string) => readFileSync(path, 'utf8').trim().split('\n').slice(1);
    expect(rows(again)).toEqual(rows(file));
    expect(JSON.parse(rows(file)[1] as string).createdAt).toMatch(/^\d{4}-\d\d-\d\dT/); // a row

    expect(await run('threads', other)).toContain('1 thread(s)');
    expect(await run('turn', other, 'plan-example', 'turn-2')).toContain(
      'turn turn-2: 2 rows, seqs 12–13',
    );
  });

  it('stops quietly when its reader goes away (piped to head)', async () => {
    const result = spawnSync(
      'bash',
      [
        '-o',
        'pipefail',
        '-c',
        `"${process.execPath}" --import tsx ${SCRIPT} export .tmp/scripts.db plan-example --limit 1 | head -n 2`,
      ],
      { cwd: ROOT, env: exampleEnv(), encoding: 'utf8', timeout: EXAMPLE_TIMEOUT_MS },
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(2);
  });

  it('refuses a file that is not an export, naming it', async () => {
    const result = await runExample(SCRIPT, ['import', join(temp.dir, 'x.db'), 'package.json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('line 1: not a chunklog thread export');
  });

  it('prints its usage and exits 2 without a store', async () => {
    const result = await runExample(SCRIPT, ['pages']);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('usage: npm run example:scripts');
  });

  it('works on PostgreSQL too', async (context) => {
    if (!(await postgresAvailable())) return context.skip();
    const file = join(temp.dir, 'pg.jsonl');
    await run('export', '.tmp/scripts.db', 'plan-example', file);
    const thread = `scripts-test-${process.pid}-${Date.now()}`;
    expect(await run('import', POSTGRES_URL, file, thread)).toContain(
      `into ${thread}: 13 row(s) written, every row kept its seq`,
    );
    const pages = await run('pages', POSTGRES_URL, thread, '--limit', '6');
    expect(pages).toContain('seqs 8–13 of 13, hasMore: true');
    expect(pages).toContain('seqs 1–1 of 13, hasMore: false');
    expect(await run('delete', POSTGRES_URL, thread)).toContain(`deleted ${thread}`);
  });
});
