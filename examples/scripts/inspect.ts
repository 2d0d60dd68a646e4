// Read-only views of a store: its threads, one turn, and the model messages the thread would be
// sent as (pages are printed by ../shared/print.ts).
import { toModelMessages } from 'chunklog';
import type { ChunkStore } from 'chunklog/store';
import { type Print, printModelMessages } from '../shared/print.js';
import { formatRow, type Paint } from '../shared/terminal.js';

/** Every thread, most recently active first, a keyset page of `limit` at a time. */
export async function printThreads(store: ChunkStore, print: Print, limit = 20): Promise<number> {
  let before: string | undefined;
  let count = 0;
  print('thread                                  rows  updated');
  do {
    const page = await store.listThreads({ limit, ...(before ? { before } : {}) });
    for (const thread of page.threads) {
      const title = typeof thread.metadata?.title === 'string' ? `  ${thread.metadata.title}` : '';
      print(
        `${thread.id.padEnd(38)} ${String(thread.total).padStart(5)}  ${thread.updatedAt}${title}`,
      );
      count++;
    }
    before = page.nextBefore ?? undefined;
  } while (before !== undefined);
  print(`${count} thread(s)`);
  return count;
}

/** The rows of one turn (the user's message and the answer). */
export async function printTurn(
  store: ChunkStore,
  threadId: string,
  turnId: string,
  print: Print,
  p: Paint,
): Promise<number> {
  // One index lookup: the turn's rows, or null when the thread has no such turn.
  const rows = await store.getTurn(threadId, turnId);
  if (rows === null || rows.length === 0)
    throw new Error(`no turn ${turnId} in thread ${threadId}`);
  print(p.bold(`turn ${turnId}: ${rows.length} rows, seqs ${rows[0]?.seq}–${rows.at(-1)?.seq}`));
  for (const row of rows) print(formatRow(row, p));
  return rows.length;
}

/** What the next model call would be sent: the stored thread through `toModelMessages`. */
export async function printNextInput(
  store: ChunkStore,
  threadId: string,
  print: Print,
  p: Paint,
): Promise<number> {
  const messages = toModelMessages(await store.getMessages(threadId));
  printModelMessages(messages, print, p);
  return messages.length;
}
