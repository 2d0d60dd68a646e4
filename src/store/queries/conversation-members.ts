import type { Kysely } from 'kysely';
import { asString } from '../codec.js';
import type { StoreContext } from '../context.js';
import type { StoreTables } from '../tables.js';
import { selectThread } from '../threads.js';
import { lockedThread, lockOrder } from './expire-readers.js';

/**
 * Locks a thread that is to be deleted or erased with its conversation: an alternative's
 * conversation first, then the thread, then (for a conversation) its alternatives, in
 * `lockOrder` (the order `expire` takes them in, so that neither waits for the other while
 * holding what the other waits for). Alternatives are made under the conversation's lock, so
 * none appears once it is held. Returns the alternatives in the order to delete them in (see
 * {@link dropFromConversation}, which it runs), or undefined when the thread does not exist.
 */
export async function lockForRemoval(
  ctx: StoreContext,
  trx: Kysely<StoreTables>,
  threadId: string,
): Promise<string[] | undefined> {
  const row = await trx
    .selectFrom('threads')
    .select('conversation_id')
    .where('id', '=', threadId)
    .executeTakeFirst();
  if (row !== undefined && row.conversation_id !== null) {
    await selectThread(ctx, trx, asString(row.conversation_id), true);
  }
  if ((await selectThread(ctx, trx, threadId, true)) === undefined) return undefined;
  const order = await dropFromConversation(trx, threadId);
  if (order.length === 0) return order;
  const members = await trx
    .selectFrom('threads')
    .select(['id', 'parent_id', 'fork_seq', 'fork_path', 'conversation_id'])
    .where('id', 'in', order)
    .execute();
  for (const member of lockOrder(members.map((m) => lockedThread(m)))) {
    await selectThread(ctx, trx, member.id, true);
  }
  return order;
}

/**
 * The alternatives of conversation `threadId`, each after every alternative forked from it (the
 * order to delete them in), and, when `threadId` is itself an alternative that is its
 * conversation's active path, makes the conversation's own path active again. For
 * `deleteThread` and `eraseThread`, in their transaction.
 */
export async function dropFromConversation(
  trx: Kysely<StoreTables>,
  threadId: string,
): Promise<string[]> {
  await trx
    .updateTable('threads')
    .set({ active_id: null })
    .where('active_id', '=', threadId)
    .execute();
  const rows = await trx
    .selectFrom('threads')
    .select(['id', 'parent_id'])
    .where('conversation_id', '=', threadId)
    .execute();
  const left = new Map(
    rows.map((r) => [asString(r.id), r.parent_id === null ? undefined : asString(r.parent_id)]),
  );
  const order: string[] = [];
  while (left.size > 0) {
    const parents = new Set(left.values());
    const leaves = [...left.keys()].filter((id) => !parents.has(id));
    // Parents form no cycle (a fork's parent existed before it); stop rather than spin if a
    // corrupt row says otherwise.
    if (leaves.length === 0) return [...order, ...left.keys()];
    for (const id of leaves) {
      order.push(id);
      left.delete(id);
    }
  }
  return order;
}
