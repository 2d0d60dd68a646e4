// Prints a thread the way the store pages it, and a model input the way the AI SDK takes it.
import type { ModelMessage } from 'ai';
import type { ChunkStore } from 'chunklog/store';
import { clip, formatRow, type Paint } from './terminal.js';

export type Print = (line: string) => void;

/**
 * The thread from its newest page to its oldest, as a chat client scrolling up reads it:
 * `getChunks` without `before`, then with `before` = the previous page's `oldestSeq`.
 * Returns how many pages there were.
 */
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

const cached = (part: object) =>
  (part as { providerOptions?: { anthropic?: { cacheControl?: unknown } } }).providerOptions
    ?.anthropic?.cacheControl !== undefined;

/** One line per part: role, part type, a short view of it; `⚑ cache` on a cache breakpoint. */
export function printModelMessages(
  messages: readonly ModelMessage[],
  print: Print,
  p: Paint,
): void {
  for (const message of messages) {
    const role = p.bold(message.role.padEnd(9));
    if (typeof message.content === 'string') {
      const flag = cached(message) ? p.yellow(' ⚑ cache') : '';
      print(
        `${role} ${p.cyan('text'.padEnd(11))} ${JSON.stringify(clip(message.content, 60))}${flag}`,
      );
      continue;
    }
    const parts = message.content;
    for (const [i, part] of parts.entries()) {
      let body = '';
      if (part.type === 'text') body = JSON.stringify(clip(part.text, 60));
      else if (part.type === 'reasoning') {
        const signed = (part.providerOptions as { anthropic?: { signature?: string } } | undefined)
          ?.anthropic?.signature;
        body = p.dim(`${JSON.stringify(clip(part.text, 50))}${signed ? ' (signed)' : ''}`);
      } else if (part.type === 'tool-call')
        body = `${part.toolName}(${clip(JSON.stringify(part.input), 40)}) id=${part.toolCallId}`;
      else if (part.type === 'tool-result')
        body = `${part.toolName} → ${clip(JSON.stringify(part.output), 50)}`;
      // A breakpoint on the message applies to its last part.
      const mark = cached(part) || (i === parts.length - 1 && cached(message));
      const flag = mark ? p.yellow(' ⚑ cache') : '';
      print(`${role} ${p.cyan(part.type.padEnd(11))} ${body}${flag}`);
    }
  }
}
