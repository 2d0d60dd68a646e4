// Every public export has TSDoc: a summary; a function also an example, its parameters and what
// it returns; a class a documented public member each, with an example for each method. The
// exports are read from the barrels of the subpaths package.json exports, with the TypeScript
// compiler (the same names the built `.d.ts` files hold).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import tsupConfig from '../../tsup.config.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The barrel of every subpath: `./dist/window/index.js` → the tsup entry it is built from
 * (`src/window/index.ts`).
 */
function barrels(): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { default?: string }>;
  };
  const entries = tsupConfig.entry as Record<string, string>;
  return Object.values(pkg.exports)
    .map((target) => (typeof target === 'string' ? target : target.default))
    .filter((target): target is string => target?.startsWith('./dist/') === true)
    .map((target) => {
      const entry = entries[target.replace(/^\.\/dist\//, '').replace(/\.js$/, '')];
      if (entry === undefined) throw new Error(`no tsup entry builds ${target}`);
      return join(root, entry);
    });
}

function program(entries: readonly string[]): ts.Program {
  const config = ts.readConfigFile(join(root, 'tsconfig.src.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return ts.createProgram(entries, { ...parsed.options, noEmit: true });
}

function docOf(node: ts.Node): ts.JSDoc | undefined {
  return ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc).at(-1);
}

const summaryOf = (doc: ts.JSDoc): string => ts.getTextOfJSDocComment(doc.comment)?.trim() ?? '';
const hasTag = (doc: ts.JSDoc, name: string): boolean =>
  (doc.tags ?? []).some((tag) => tag.tagName.text === name);

function functionProblems(node: ts.FunctionDeclaration, doc: ts.JSDoc): string[] {
  const problems: string[] = [];
  if (!hasTag(doc, 'example')) problems.push('no @example');
  for (const parameter of node.parameters) {
    if (!ts.isIdentifier(parameter.name)) continue;
    const name = parameter.name.text;
    const documented = (doc.tags ?? []).some(
      (tag) => ts.isJSDocParameterTag(tag) && tag.name.getText() === name,
    );
    if (!documented) problems.push(`no @param ${name}`);
  }
  const returns = node.type?.getText();
  if (returns !== undefined && returns !== 'void' && returns !== 'Promise<void>') {
    if (!hasTag(doc, 'returns')) problems.push('no @returns');
  }
  return problems;
}

function classProblems(node: ts.ClassDeclaration): string[] {
  const problems: string[] = [];
  for (const member of node.members) {
    const hidden = ts.ModifierFlags.Private | ts.ModifierFlags.Protected;
    if ((ts.getCombinedModifierFlags(member) & hidden) !== 0) continue;
    if (member.name !== undefined && ts.isPrivateIdentifier(member.name)) continue;
    if (ts.isClassStaticBlockDeclaration(member) || ts.isSemicolonClassElement(member)) continue;
    const name = member.name?.getText() ?? 'constructor';
    const doc = docOf(member);
    if (doc === undefined) problems.push(`${name}: no doc comment`);
    else if (ts.isMethodDeclaration(member) && !hasTag(doc, 'example')) {
      problems.push(`${name}: no @example`);
    }
  }
  return problems;
}

/** What is missing from the TSDoc of each public export, as `barrel: name: problem`. */
function missingDocs(entries: readonly string[]): string[] {
  const problems: string[] = [];
  const compiled = program(entries);
  const types = compiled.getTypeChecker();
  for (const entry of entries) {
    const source = compiled.getSourceFile(entry);
    const module = source === undefined ? undefined : types.getSymbolAtLocation(source);
    if (module === undefined) {
      problems.push(`${entry}: not a module`);
      continue;
    }
    const where = entry.startsWith(root) ? entry.slice(root.length + 1) : entry;
    for (const exported of types.getExportsOfModule(module)) {
      const symbol =
        (exported.flags & ts.SymbolFlags.Alias) !== 0 ? types.getAliasedSymbol(exported) : exported;
      for (const declaration of symbol.declarations ?? []) {
        const doc = docOf(declaration);
        const found: string[] = [];
        if (doc === undefined || summaryOf(doc) === '') found.push('no doc comment');
        else if (ts.isFunctionDeclaration(declaration)) {
          found.push(...functionProblems(declaration, doc));
        }
        if (ts.isClassDeclaration(declaration)) found.push(...classProblems(declaration));
        for (const problem of found) problems.push(`${where}: ${exported.name}: ${problem}`);
      }
    }
  }
  return [...new Set(problems)];
}

describe('TSDoc of the public API', () => {
  it('documents every export of every subpath (summary; functions: params, returns, example)', () => {
    expect(missingDocs(barrels())).toEqual([]);
  }, 60_000);

  it('names the export and what its doc lacks', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chunklog-tsdoc-'));
    try {
      const barrel = join(dir, 'index.ts');
      writeFileSync(
        barrel,
        [
          'export function bare(a: number): number { return a; }',
          '/** Adds one. */',
          'export function noExample(a: number): number { return a + 1; }',
          'export interface Shape { readonly x: number }',
          '/** A class. @example new Thing() */',
          'export class Thing { run(): void {} }',
          '/** Documented. */',
          'export const ok: number = 1;',
        ].join('\n'),
      );
      expect(missingDocs([barrel]).map((p) => p.slice(barrel.length + 2))).toEqual([
        'bare: no doc comment',
        'noExample: no @example',
        'noExample: no @param a',
        'noExample: no @returns',
        'Shape: no doc comment',
        'Thing: run: no doc comment',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('finds the barrels of all eight subpaths', () => {
    expect(barrels().map((b) => b.slice(root.length + 1))).toEqual([
      'src/index.ts',
      'src/window/index.ts',
      'src/store/index.ts',
      'src/entries/session.ts',
      'src/testing/index.ts',
      'src/react/index.ts',
      'src/relay/index.ts',
      'src/transfer/index.ts',
    ]);
  });
});
