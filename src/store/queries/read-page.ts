import type { TurnStatus } from '../../schema/turn-status.js';
import type { StoreContext } from '../context.js';
import { type PageRow, pageTurnStatus } from '../statements.js';

/** A keyset page as read: its rows (in query order) and the status of its turns not completed. */
export interface ReadPage {
  readonly records: PageRow[];
  readonly turnStatus: Record<string, TurnStatus> | undefined;
}

/**
 * Reads a keyset page (`none`: the newest rows, `before` or `after` a seq) with the thread's next
 * seq and its turns' statuses, in one statement.
 *
 * @param ctx - the store
 * @param bound - which page
 * @param args - the page query's parameters (see `StoreStatements.pageTail` and the others)
 */
export async function readPage(
  ctx: StoreContext,
  bound: 'none' | 'before' | 'after',
  args: readonly unknown[],
): Promise<ReadPage> {
  const s = ctx.statements;
  const query = bound === 'none' ? s.pageTail : bound === 'before' ? s.pageBefore : s.pageAfter;
  const records = (await query.execute(ctx.db, args)).rows.slice();
  return { records, turnStatus: pageTurnStatus(records) };
}
