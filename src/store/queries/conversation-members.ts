import type { Kysely } from 'kysely';
import { asString } from '../codec.js';
import type { StoreTables } from '../tables.js';

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
