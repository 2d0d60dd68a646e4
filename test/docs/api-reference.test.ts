// docs/api/ is generated from the TSDoc by `npm run docs:api` and committed (notes/0014). This
// regenerates it into a temporary directory and fails when the committed copy is stale, or when
// typedoc warns (a broken {@link}, a public type that references one that is not exported).
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { ROOT, tempDir } from '../examples/support.js';

const temp = tempDir('api');
afterAll(() => temp.remove());

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

it('docs/api is what `npm run docs:api` generates from the current sources', async () => {
  const { stdout, stderr } = await promisify(execFile)(
    join(ROOT, 'node_modules/.bin/typedoc'),
    ['--out', temp.dir, '--logLevel', 'Warn'],
    { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } },
  );
  expect(`${stdout}${stderr}`.trim(), 'typedoc warnings').toBe('');

  const committed = join(ROOT, 'docs/api');
  const stale = 'docs/api is stale: run `npm run docs:api` and commit docs/api';
  expect(files(committed), stale).toEqual(files(temp.dir));
  for (const file of files(temp.dir)) {
    expect(readFileSync(join(committed, file), 'utf8'), `${stale} (${file})`).toBe(
      readFileSync(join(temp.dir, file), 'utf8'),
    );
  }
}, 120_000);
