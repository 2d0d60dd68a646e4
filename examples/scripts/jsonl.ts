// Export a thread to JSONL and import it back. The file is one header line describing the
// thread, then one stored row per line, in seq order:
//
//   {"format":"chunklog.thread","version":1,"thread":{"id":"t1","total":11,...}}
//   {"threadId":"t1","seq":1,"turnId":"turn-1","step":0,"role":"user","type":"text","data":{...}}
//   ...
//
// Export reads the thread a page at a time (`getChunksAfter`, forwards by seq), so a long thread
// is never held in memory whole. Import validates every line (`parseChunkRow`), then stores the
// rows turn by turn with `appendTurn`: a turn is one transaction, and a turn already in the target
// thread is not written again, so importing the same file twice changes nothing. Seqs, turn ids,
// contents and times come back the same (`appendTurn`'s `createdAt` keeps each turn's time).
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import { ChunklogError, type ChunkRow, type ChunkRowDraft, parseChunkRow } from 'chunklog';
import type { ChunkStore, Thread } from 'chunklog/store';

export const FORMAT = 'chunklog.thread';

export interface ExportHeader {
  readonly format: typeof FORMAT;
  readonly version: 1;
  readonly thread: Thread;
}

export interface ExportResult {
  /** Rows written. */
  readonly rows: number;
  /** Pages read (`getChunksAfter` calls). */
  readonly pages: number;
}

/** Writes `threadId` to `out` as JSONL, reading it `pageSize` rows at a time. */
export async function exportThread(
  store: ChunkStore,
  threadId: string,
  out: Writable,
  pageSize = 500,
): Promise<ExportResult> {
  const thread = await store.getThread(threadId);
  const header: ExportHeader = { format: FORMAT, version: 1, thread };
  await write(out, `${JSON.stringify(header)}\n`);
  let rows = 0;
  let pages = 0;
  let afterSeq = 0;
  for (;;) {
    // The oldest rows after the last one written: a keyset page, as cheap at the end of a long
    // thread as at its start.
    const page = await store.getChunksAfter(threadId, { limit: pageSize, afterSeq });
    pages++;
    for (const row of page.chunks) await write(out, `${JSON.stringify(row)}\n`);
    rows += page.chunks.length;
    if (!page.hasMore || page.newestSeq === null) return { rows, pages };
    afterSeq = page.newestSeq;
  }
}

export interface ImportResult {
  readonly threadId: string;
  /** Turns found in the file. */
  readonly turns: number;
  /** Rows written (0 when every turn was already there). */
  readonly written: number;
  /** Whether every row kept its seq (true when the target thread was new or the same thread). */
  readonly sameSeqs: boolean;
}

/** Reads a JSONL export into `store`, as the thread `threadId` (default: the exported id). */
export async function importThread(
  store: ChunkStore,
  file: string,
  threadId?: string,
): Promise<ImportResult> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let header: ExportHeader | undefined;
  let target = threadId;
  let turn: ChunkRow[] = [];
  let turns = 0;
  let before = 0;
  let sameSeqs = true;
  const flush = async () => {
    if (turn.length === 0 || target === undefined) return;
    const drafts: ChunkRowDraft[] = turn.map(
      ({ threadId: _t, seq: _s, createdAt: _c, ...draft }) => draft as ChunkRowDraft,
    );
    // The turn keeps the time it was first stored (its rows share one).
    const createdAt = turn[0]?.createdAt;
    const stored = await store.appendTurn(target, drafts, createdAt ? { createdAt } : {});
    sameSeqs &&= stored.every((row, i) => row.seq === turn[i]?.seq);
    turns++;
    turn = [];
  };
  let n = 0;
  for await (const line of lines) {
    n++;
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (header === undefined) value = undefined;
      else throw new Error(`${file}, line ${n}: ${(error as Error).message}`, { cause: error });
    }
    if (header === undefined) {
      header = checkHeader(value, file);
      target ??= header.thread.id;
      before = await ensureThread(store, target, header.thread);
      continue;
    }
    let row: ChunkRow;
    try {
      row = parseChunkRow(value);
    } catch (error) {
      throw new Error(`${file}, line ${n}: ${(error as Error).message}`, { cause: error });
    }
    if (turn.length > 0 && turn[0]?.turnId !== row.turnId) await flush();
    turn.push(row);
  }
  await flush();
  if (target === undefined) throw new Error(`${file} is empty`);
  const after = (await store.getThread(target)).total;
  return { threadId: target, turns, written: after - before, sameSeqs };
}

function checkHeader(value: unknown, file: string): ExportHeader {
  const header = value as Partial<ExportHeader> | null;
  if (header?.format !== FORMAT || header.version !== 1 || typeof header.thread?.id !== 'string') {
    throw new Error(`${file} is not a chunklog thread export (its first line has no header)`);
  }
  return header as ExportHeader;
}

/** Creates the target thread with the exported metadata; returns how many rows it already holds. */
async function ensureThread(store: ChunkStore, id: string, source: Thread): Promise<number> {
  try {
    return (await store.getThread(id)).total;
  } catch (error) {
    if (!ChunklogError.hasCode(error, 'thread-not-found')) throw error;
    await store.createThread(id, source.metadata ? { metadata: source.metadata } : {});
    return 0;
  }
}

function write(out: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (out.write(text)) resolve();
    else {
      out.once('drain', resolve);
      out.once('error', reject);
    }
  });
}
