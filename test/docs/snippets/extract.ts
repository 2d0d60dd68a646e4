// The TypeScript blocks of the README and docs/*.md, and what their install lines name. The
// conventions (DEVELOPERS.md, "Docs that run"): a ```ts or ```tsx block compiles on its own, or
// its first line says what it assumes (`// assumes: store, session`: names declared in
// context.ts), or, rarely, that it is not checked and why (`// not checked: pseudo-code`).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Snippet {
  /** `docs/window.md` */
  readonly page: string;
  /** The line of the opening fence. */
  readonly line: number;
  readonly lang: 'ts' | 'tsx';
  readonly code: string;
  /** The names of `// assumes:`, or undefined for a complete snippet. */
  readonly assumes: readonly string[] | undefined;
  /** The reason of `// not checked:`, when given. */
  readonly skip: string | undefined;
}

/** README.md and every docs/*.md (not the generated docs/api/). */
export function docPages(root: string): string[] {
  return [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
}

/** The ts/tsx blocks of one page. */
export function snippetsOf(page: string, markdown: string): Snippet[] {
  const out: Snippet[] = [];
  for (const match of markdown.matchAll(/^```(ts|tsx|typescript)\n([\s\S]*?)^```/gm)) {
    const code = match[2] as string;
    const first = code.split('\n', 1)[0] ?? '';
    const assumes = /^\/\/ assumes: (.+)$/.exec(first)?.[1];
    const skip = /^\/\/ not checked: (.+)$/.exec(first)?.[1];
    out.push({
      page,
      line: markdown.slice(0, match.index).split('\n').length,
      lang: match[1] === 'tsx' ? 'tsx' : 'ts',
      code,
      assumes: assumes
        ?.split(',')
        .map((name) => name.trim())
        .filter(Boolean),
      skip,
    });
  }
  return out;
}

/** The package a bare import specifier names (`chunklog/store` → `chunklog`), or undefined. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('node:') || specifier.startsWith('/')) {
    return undefined;
  }
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The packages a snippet imports. */
export function importsOf(code: string): string[] {
  const names = new Set<string>();
  for (const [, specifier] of code.matchAll(
    /^\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/gm,
  )) {
    const name = packageOf(specifier as string);
    if (name !== undefined) names.add(name);
  }
  for (const [, specifier] of code.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    const name = packageOf(specifier as string);
    if (name !== undefined) names.add(name);
  }
  return [...names];
}

/** The packages a page's `npm install` lines name (versions and flags dropped). */
export function installedBy(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const [, rest] of markdown.matchAll(/npm (?:install|i|add)\b([^`\n&|;]*)/g)) {
    for (const token of (rest as string).trim().split(/\s+/)) {
      if (token === '' || token.startsWith('-')) continue;
      const at = token.indexOf('@', 1);
      names.add(at === -1 ? token : token.slice(0, at));
    }
  }
  return names;
}

/** Reads a page. */
export function readPage(root: string, page: string): string {
  return readFileSync(join(root, page), 'utf8');
}
