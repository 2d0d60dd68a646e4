// The README and docs/ as a newcomer reads them: the first commands, the quick start (the same
// code as examples/quick-start/main.ts, which test/examples runs), links that lead somewhere, and
// npm scripts that exist.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../examples/support.js';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const codeBlocks = (markdown: string) =>
  [...markdown.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], code: m[2] }));
const pages = [
  'README.md',
  'DEVELOPERS.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  ...readdirSync(join(ROOT, 'notes'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `notes/${f}`),
];

describe('README.md', () => {
  it('starts with exactly the two commands a newcomer runs, each doing its own set-up', () => {
    const [first] = codeBlocks(read('README.md'));
    expect(first).toEqual({
      lang: 'sh',
      code: 'npm install && npm run demo\nnpm install && npm test\n',
    });
  });

  it('lists every subpath export and the inspector', () => {
    const readme = read('README.md');
    const exports = Object.keys(JSON.parse(read('package.json')).exports).filter(
      (p) => p !== './package.json',
    );
    for (const subpath of exports)
      expect(readme).toContain(`\`${subpath.replace(/^\./, 'chunklog')}\``);
    expect(readme).toContain('npx chunklog inspect');
  });

  it('shows the quick start that examples/quick-start/main.ts runs, in README and getting started', () => {
    const example = read('examples/quick-start/main.ts');
    for (const page of ['README.md', 'docs/getting-started.md']) {
      const blocks = codeBlocks(read(page)).filter((b) => b.lang === 'ts');
      expect(
        blocks.some((b) => b.code === example),
        `${page} holds examples/quick-start/main.ts`,
      ).toBe(true);
    }
    expect(example.trim().split('\n').length).toBeLessThanOrEqual(22);
  });
});

describe('docs', () => {
  it('links only to files that exist', () => {
    const broken: string[] = [];
    for (const page of pages) {
      const text = read(page).replace(/```[\s\S]*?```/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:|#)/.test(target as string)) continue;
        const path = (target as string).split('#')[0] as string;
        if (!existsSync(join(ROOT, dirname(page), path))) broken.push(`${page} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('names only npm scripts that exist', () => {
    const scripts = Object.keys(JSON.parse(read('package.json')).scripts);
    const missing: string[] = [];
    for (const page of pages) {
      for (const [, name] of read(page).matchAll(/npm run ([\w:-]+)/g)) {
        if (!scripts.includes(name as string)) missing.push(`${page}: npm run ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('has an index that links every page of docs/', () => {
    const index = read('docs/README.md');
    for (const page of readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'))) {
      if (page !== 'README.md') expect(index, page).toContain(`](${page}`);
    }
  });
});
