// Docs that run: every TypeScript block of README.md and docs/*.md type-checks, complete or with
// what it assumes (`// assumes: …`, names from snippets/context.ts), against chunklog's sources;
// every page's install lines name the packages its snippets import; getting started has no
// fragments. Conventions in DEVELOPERS.md ("Docs that run").
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../examples/support.js';
import {
  docPages,
  importsOf,
  installedBy,
  readPage,
  type Snippet,
  snippetsOf,
} from './snippets/extract.js';

const pages = docPages(ROOT);
const snippets = pages.flatMap((page) => snippetsOf(page, readPage(ROOT, page)));
const contextFile = join(ROOT, 'test/docs/snippets/context.ts');
const declared = new Set(
  [...readFileSync(contextFile, 'utf8').matchAll(/^export declare (?:const|function) (\w+)/gm)].map(
    (m) => m[1] as string,
  ),
);

/** Type-checks the snippets in one program; problems as `page:line: message`. */
function typeCheck(checked: readonly Snippet[]): string[] {
  const dir = join(ROOT, '.tmp', `docs-snippets-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = new Map<string, { snippet: Snippet; offset: number }>();
  checked.forEach((snippet, i) => {
    const name = `${snippet.page.replace(/[/.]/g, '_')}_${snippet.line}_${i}.${snippet.lang}`;
    const file = join(dir, name);
    const context = relative(dir, contextFile).replace(/\.ts$/, '.js');
    const preamble = snippet.assumes?.length
      ? `import { ${snippet.assumes.join(', ')} } from '${context}';\n`
      : '';
    writeFileSync(file, `${preamble}${snippet.code}\nexport {};\n`);
    files.set(file, { snippet, offset: preamble === '' ? 0 : 1 });
  });
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const program = ts.createProgram(
    [...files.keys(), join(ROOT, 'test/docs/snippets/modules.d.ts')],
    {
      ...parsed.options,
      noEmit: true,
      jsx: ts.JsxEmit.ReactJSX,
      paths: {
        chunklog: [join(ROOT, 'src/index.ts')],
        // A subpath built from an entry of its own (see tsup.config.ts).
        'chunklog/session': [join(ROOT, 'src/entries/session.ts')],
        'chunklog/*': [join(ROOT, 'src/*/index.ts')],
      },
    },
  );
  const problems: string[] = [];
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const at = diagnostic.file && files.get(diagnostic.file.fileName);
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').split('\n')[0];
    if (!at || diagnostic.start === undefined) {
      problems.push(`(${diagnostic.file?.fileName ?? 'program'}): ${message}`);
      continue;
    }
    const { line } = (diagnostic.file as ts.SourceFile).getLineAndCharacterOfPosition(
      diagnostic.start,
    );
    problems.push(`${at.snippet.page}:${at.snippet.line + 1 + line - at.offset}: ${message}`);
  }
  rmSync(dir, { recursive: true, force: true });
  return problems;
}

describe('docs that run', () => {
  it('finds the TypeScript blocks of every page', () => {
    expect(snippets.length).toBeGreaterThan(30);
  });

  it('type-checks every TypeScript block of README.md and docs/*.md', () => {
    const checked = snippets.filter((s) => s.skip === undefined);
    expect(typeCheck(checked)).toEqual([]);
  }, 120_000);

  it('assumes only names snippets/context.ts declares, and says why a block is not checked', () => {
    const unknown = snippets.flatMap((s) =>
      (s.assumes ?? [])
        .filter((name) => !declared.has(name))
        .map((name) => `${s.page}:${s.line}: ${name}`),
    );
    expect(unknown).toEqual([]);
    for (const s of snippets)
      if (s.skip !== undefined)
        expect(s.skip.trim().length, `${s.page}:${s.line}`).toBeGreaterThan(5);
  });

  it('has getting started complete: every block defines every name it uses', () => {
    const fragments = snippets
      .filter(
        (s) =>
          s.page === 'docs/getting-started.md' && (s.assumes !== undefined || s.skip !== undefined),
      )
      .map((s) => `${s.page}:${s.line}`);
    expect(fragments).toEqual([]);
  });

  it('names in the install lines of each page every package its snippets import', () => {
    const missing: string[] = [];
    for (const page of pages) {
      const installed = installedBy(readPage(ROOT, page));
      for (const snippet of snippets.filter((s) => s.page === page)) {
        for (const name of importsOf(snippet.code)) {
          if (!installed.has(name)) missing.push(`${page}:${snippet.line}: ${name}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
