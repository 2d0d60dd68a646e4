// The entry points a browser app imports (`chunklog`, `chunklog/window`, `chunklog/react`), bundled
// by esbuild for the browser from the built package and then loaded: every export is there once
// the bundle ran. A lazy `import('ai')` once made esbuild wrap zod (which `ai` shares) in
// initializers it never called, and the bundle of `chunklog` threw "Class is not a constructor" at
// load.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'chunklog-browser-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ENTRIES = {
  chunklog: ['toUIMessages', 'describeError', 'parseChunkEvent', 'reduceTurn', 'ChunklogError'],
  'chunklog/window': ['ChunkWindow', 'describeError'],
  'chunklog/react': ['useChunkThread'],
} as const;

describe('a browser bundle of the package', () => {
  for (const [entry, names] of Object.entries(ENTRIES)) {
    it(`of ${entry} loads, with its exports`, async () => {
      const out = join(dir, `${entry.replace('/', '-')}.bundle.mjs`);
      // Resolved from the package's own folder: `chunklog/…` is the built package, by its exports.
      await build({
        stdin: {
          contents: `export { ${names.join(', ')} } from '${entry}';\n`,
          resolveDir: root,
          loader: 'js',
        },
        bundle: true,
        format: 'esm',
        platform: 'browser',
        outfile: out,
        logLevel: 'silent',
      });
      const loaded = (await import(pathToFileURL(out).href)) as Record<string, unknown>;
      for (const exported of names) expect(typeof loaded[exported], exported).toBe('function');
    });
  }
});
