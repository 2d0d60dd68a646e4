// The conformance kit: what every suite shares — the test functions, the stores it opened, the
// threads it created (deleted afterwards), and two assertions.
import { ChunklogError, type ChunklogErrorCode } from '../../errors/chunklog-error.js';
import type { ChunkRow } from '../../schema/chunk-row.js';
import type { ChunkStore } from '../../store/types.js';
import type { ChunkStoreFactory, ConformanceTestApi } from './api.js';

/** What the suites of the kit share. */
export interface Kit {
  readonly api: ConformanceTestApi;
  /** The store the suites use (opened before the first test). */
  readonly store: ChunkStore;
  /** Opens another store over the same database (closed after the suite). */
  open(): Promise<ChunkStore>;
  /** A fresh thread id, deleted after the suite. */
  thread(label: string): string;
  /** Thread ids to delete after the suite. */
  readonly created: Set<string>;
  readonly writers: number;
  readonly turnsPerWriter: number;
  /** Awaits `promise` and checks that it failed with a chunklog error of `code`. */
  expectCode(promise: Promise<unknown>, code: ChunklogErrorCode): Promise<ChunklogError>;
  /** Checks that the thread's rows are seqs 1..n and that each turn is one whole run of rows. */
  expectDenseWholeTurns(rows: readonly ChunkRow[], turnSizes: ReadonlyMap<string, number>): void;
  /** Opens the main store (from `beforeAll`). */
  start(): Promise<void>;
  /** Deletes the threads and closes the stores (from `afterAll`). */
  finish(): Promise<void>;
}

/** Makes the shared state of one `describeChunkStore` suite. */
export function createKit(
  api: ConformanceTestApi,
  factory: ChunkStoreFactory,
  settings: { readonly writers: number; readonly turnsPerWriter: number },
): Kit {
  const { expect } = api;
  async function expectCode(
    promise: Promise<unknown>,
    code: ChunklogErrorCode,
  ): Promise<ChunklogError> {
    try {
      await promise;
    } catch (error) {
      expect(ChunklogError.hasCode(error, code), `expected ${code}, got ${String(error)}`).toBe(
        true,
      );
      return error as ChunklogError;
    }
    throw new Error(`expected a ${code} error, but the call succeeded`);
  }

  /** Checks that the thread's rows are seqs 1..n and that each turn is one whole run of rows. */
  function expectDenseWholeTurns(
    rows: readonly ChunkRow[],
    turnSizes: ReadonlyMap<string, number>,
  ): void {
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    const seen = new Map<string, number>();
    let previous: string | undefined;
    for (const row of rows) {
      if (row.turnId !== previous) {
        expect(seen.has(row.turnId), `turn ${row.turnId} is split or stored twice`).toBe(false);
        seen.set(row.turnId, 0);
        previous = row.turnId;
      }
      seen.set(row.turnId, (seen.get(row.turnId) ?? 0) + 1);
    }
    expect(new Map([...seen].sort())).toEqual(new Map([...turnSizes].sort()));
  }

  const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  let counter = 0;
  const opened: ChunkStore[] = [];
  const created = new Set<string>();
  let main: ChunkStore | undefined;
  const open = async (): Promise<ChunkStore> => {
    const s = await factory();
    opened.push(s);
    await s.migrate();
    return s;
  };
  return {
    api,
    get store(): ChunkStore {
      if (main === undefined) throw new Error('the conformance kit has not opened its store yet');
      return main;
    },
    open,
    thread(label) {
      const id = `conf-${run}-${label}-${++counter}`;
      created.add(id);
      return id;
    },
    created,
    writers: settings.writers,
    turnsPerWriter: settings.turnsPerWriter,
    expectCode,
    expectDenseWholeTurns,
    async start() {
      main = await open();
    },
    async finish() {
      if (main !== undefined) {
        // Newest first, in a few passes: a thread with forks goes once its forks have gone.
        const ids = [...created].reverse();
        for (let pass = 0; pass < 4; pass++) {
          for (const id of ids) await main.deleteThread(id).catch(() => undefined);
        }
      }
      for (const s of opened) await s.close();
    },
  };
}
