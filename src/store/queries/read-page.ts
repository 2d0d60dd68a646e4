import type { TurnStatus } from '../../schema/turn-status.js';
import { asString, type StoredRecord, seqOf } from '../codec.js';
import type { StoreContext } from '../context.js';
import { type PageRow, pageRowObject, pageTurnStatus, turnStatuses } from '../statements.js';

/** A keyset page as read: its rows (in query order) and the status of its turns not completed. */
export interface ReadPage {
  readonly records: PageRow[];
  readonly turnStatus: Record<string, TurnStatus> | undefined;
}

/**
 * Reads a keyset page (`none`: the newest rows, `before` or `after` a seq) with the thread's next
 * seq and its turns' statuses, in one snapshot. On the store's own SQLite connection the statuses
 * come from a second query in the same read transaction, through the turns' `(thread_id, status)`
 * index: a few index probes instead of a lookup per row. Elsewhere one statement reads them all.
 *
 * @param ctx - the store
 * @param bound - which page
 * @param args - the page query's parameters (see `StoreStatements.pageTail` and the others)
 * @param threadId - the thread
 */
export async function readPage(
  ctx: StoreContext,
  bound: 'none' | 'before' | 'after',
  args: readonly unknown[],
  threadId: string,
): Promise<ReadPage> {
  const s = ctx.statements;
  let records: PageRow[] | undefined;
  let open: ReadonlyArray<{ readonly turn_id: unknown; readonly status: unknown }> = [];
  const direct =
    ctx.direct?.inSnapshot((all) => {
      records = s.pagePlain[bound].allIn(all, ctx.db, args);
      const first = records[0];
      const last = records[records.length - 1];
      if (first === undefined || last === undefined) return;
      const a = Number(seqOf(first as StoredRecord));
      const b = Number(seqOf(last as StoredRecord));
      open = s.openTurns.allIn(all, ctx.db, [threadId, Math.max(a, b), Math.min(a, b)]);
    }) ?? false;
  if (direct && records !== undefined) {
    return { records, turnStatus: statusesIn(records, open) };
  }
  const full = bound === 'none' ? s.pageTail : bound === 'before' ? s.pageBefore : s.pageAfter;
  const rows = (await full.execute(ctx.db, args)).rows.slice();
  return { records: rows, turnStatus: pageTurnStatus(rows) };
}

/** The statuses of the open turns that have rows in the page, by turn id (undefined: none). */
function statusesIn(
  records: readonly PageRow[],
  open: ReadonlyArray<{ readonly turn_id: unknown; readonly status: unknown }>,
): Record<string, TurnStatus> | undefined {
  if (open.length === 0) return undefined;
  const inPage = new Set(records.map((r) => asString(pageRowObject(r).turn_id)));
  return turnStatuses(open, (turnId) => inPage.has(turnId));
}
