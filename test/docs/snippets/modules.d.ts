// Types of the packages a documentation snippet imports that are not dev dependencies of chunklog
// (a Svelte runtime, a libSQL dialect): just what the snippets use.
declare module 'svelte/reactivity' {
  export function createSubscriber(
    start: (update: () => void) => (() => void) | undefined,
  ): () => void;
}

declare module '@libsql/kysely-libsql' {
  import type { Dialect } from 'kysely';
  export class LibsqlDialect implements Dialect {
    constructor(config: { url: string; authToken?: string });
    createAdapter: Dialect['createAdapter'];
    createDriver: Dialect['createDriver'];
    createIntrospector: Dialect['createIntrospector'];
    createQueryCompiler: Dialect['createQueryCompiler'];
  }
}

declare module 'next/server' {
  /** Runs a task after the response has been sent (Next.js 15). */
  export function after(task: Promise<unknown> | (() => unknown)): void;
}

declare module '@vercel/functions' {
  /** Keeps the function running until the promise settles. */
  export function waitUntil(promise: Promise<unknown>): void;
}
