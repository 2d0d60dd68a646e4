import type { ZodType } from 'zod';
import * as z from 'zod/mini';
import { type ChunkRow, chunkRowMini } from './chunk-row.js';
import { classicView } from './classic-view.js';
import { parseWith } from './parse.js';
import { type TurnStatus, turnStatusMini } from './turn-status.js';

/**
 * One page of a thread's log, as `ChunkStore.getChunks` returns it and as a window's `loadPage`
 * must return it: at most `limit` rows, the newest ones with `seq < before`, in ascending `seq`.
 *
 * @example
 * ```ts
 * const page: ChunkPage = await store.getChunks(threadId, { limit: 50 });
 * ```
 */
export interface ChunkPage {
  /** The rows, in ascending `seq`. */
  readonly chunks: readonly ChunkRow[];
  /** How many rows the thread holds. */
  readonly total: number;
  /** The smallest `seq` of this page (the `before` of the next older page), null when empty. */
  readonly oldestSeq: number | null;
  /** Whether rows older than this page exist. */
  readonly hasMore: boolean;
  /**
   * The status of each turn of the page that is not `completed`, by turn id (a store with
   * migration `0002` sets it; a turn it does not name is completed). A `running` turn's rows are
   * the steps stored so far: more will follow, and its live events cover them.
   */
  readonly turnStatus?: Readonly<Record<string, TurnStatus>> | undefined;
}

/**
 * The `zod/mini` schema of a {@link ChunkPage}: what the window validates pages with. Beyond the
 * shape it checks that rows are in strictly ascending `seq`, belong to one thread, and that
 * `oldestSeq` is the first row's `seq` (null for an empty page).
 */
export const chunkPageMini: z.ZodMiniType<ChunkPage> = z
  .object({
    chunks: z.array(chunkRowMini),
    total: z.number().check(z.int(), z.nonnegative()),
    oldestSeq: z.nullable(z.number().check(z.int(), z.positive())),
    hasMore: z.boolean(),
    turnStatus: z.optional(z.record(z.string(), turnStatusMini)),
  })
  .check((ctx) => {
    const { chunks, oldestSeq } = ctx.value;
    const first = chunks[0];
    if ((first?.seq ?? null) !== oldestSeq) {
      ctx.issues.push({
        code: 'custom',
        message: `oldestSeq must be the first row's seq (${first?.seq ?? null})`,
        input: oldestSeq,
        path: ['oldestSeq'],
      });
    }
    for (let i = 1; i < chunks.length; i++) {
      const row = chunks[i] as ChunkRow;
      const previous = chunks[i - 1] as ChunkRow;
      const field =
        row.seq <= previous.seq
          ? 'seq'
          : row.threadId !== previous.threadId
            ? 'threadId'
            : undefined;
      if (field === undefined) continue;
      ctx.issues.push({
        code: 'custom',
        message:
          field === 'seq'
            ? 'rows must be in strictly ascending seq'
            : 'rows must belong to one thread',
        input: row[field],
        path: ['chunks', i, field],
      });
      return;
    }
  });

/**
 * Zod schema of a {@link ChunkPage}. Beyond the shape it checks that rows are in strictly
 * ascending `seq`, belong to one thread, and that `oldestSeq` is the first row's `seq` (null for
 * an empty page).
 *
 * @example
 * ```ts
 * const page = ChunkPageSchema.parse(await response.json());
 * ```
 */
export const ChunkPageSchema: ZodType<ChunkPage> = /* @__PURE__ */ classicView(chunkPageMini);

/**
 * Validates a page returned by a `loadPage`.
 *
 * @param value - the untrusted page
 * @returns the page
 * @throws {ChunklogError} `invalid-page`, naming the first offending path and value
 *
 * @example
 * ```ts
 * const page = parseChunkPage(await (await fetch(url)).json());
 * ```
 */
export function parseChunkPage(value: unknown): ChunkPage {
  return parseWith(chunkPageMini, value, 'invalid-page', 'chunk page');
}
