// Read-only views of a store: its threads, a thread page by page (keyset), one turn, and the
// model messages the thread would be sent as.
import { toModelMessages } from 'chunklog';
import type { ChunkStore } from 'chunklog/store';
import { clip, formatRow, type Paint } from '../shared/terminal.js';

type Print = (line: string) => void;

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

/** The thread from its newest page to its oldest: `getChunks` with `before` = the last `oldestSeq`. */
export async function printPages(
  store: ChunkStore,
  threadId: string,
  print: Print,
  p: Paint,
  limit = 5,
): Promise<number> {
  let before: number | undefined;
  let pages = 0;
  for (;;) {
    const page = await store.getChunks(threadId, { limit, ...(before ? { before } : {}) });
    if (page.chunks.length === 0) break;
    pages++;
    const first = page.chunks[0]?.seq;
    const last = page.chunks.at(-1)?.seq;
    print(
      p.bold(`page ${pages}`) +
        p.dim(`  getChunks({ limit: ${limit}${before ? `, before: ${before}` : ''} })`) +
        `  seqs ${first}–${last} of ${page.total}, hasMore: ${page.hasMore}`,
    );
    for (const row of page.chunks) print(formatRow(row, p));
    if (!page.hasMore || page.oldestSeq === null) break;
    before = page.oldestSeq;
  }
  return pages;
}

/** The rows of one turn (the user's message and the answer). */
export async function printTurn(
  store: ChunkStore,
  threadId: string,
  turnId: string,
  print: Print,
  p: Paint,
): Promise<number> {
  // The store has no per-turn read: read the thread and keep the turn's rows.
  const rows = (await store.getRows(threadId)).filter((row) => row.turnId === turnId);
  if (rows.length === 0) throw new Error(`no turn ${turnId} in thread ${threadId}`);
  print(p.bold(`turn ${turnId}: ${rows.length} rows, seqs ${rows[0]?.seq}–${rows.at(-1)?.seq}`));
  for (const row of rows) print(formatRow(row, p));
  return rows.length;
}

/** What the next model call would be sent: the stored thread through `toModelMessages`. */
export async function printModelMessages(
  store: ChunkStore,
  threadId: string,
  print: Print,
  p: Paint,
): Promise<number> {
  const messages = toModelMessages(await store.getMessages(threadId));
  for (const message of messages) {
    if (typeof message.content === 'string') {
      print(`${p.bold(message.role.padEnd(9))} ${clip(message.content)}`);
      continue;
    }
    for (const part of message.content) {
      const body =
        part.type === 'text'
          ? JSON.stringify(clip(part.text, 60))
          : part.type === 'reasoning'
            ? p.dim(JSON.stringify(clip(part.text, 50)))
            : part.type === 'tool-call'
              ? `${part.toolName}(${clip(JSON.stringify(part.input), 40)}) id=${part.toolCallId}`
              : part.type === 'tool-result'
                ? `${part.toolName} → ${clip(JSON.stringify(part.output), 50)}`
                : '';
      print(`${p.bold(message.role.padEnd(9))} ${p.cyan(part.type.padEnd(11))} ${body}`);
    }
  }
  return messages.length;
}
