// Export a thread to JSONL and import it back, with `chunklog/transfer`. The file is a header
// describing the thread, then each turn (its status and usage) followed by its rows, in seq
// order, and an end line:
//
//   {"format":"chunklog-thread","version":1,"thread":{"id":"t1","createdAt":"…",…}}
//   {"kind":"turn","turnId":"turn-1","status":"completed"}
//   {"kind":"row","seq":1,"turnId":"turn-1","step":0,"role":"user","type":"text","data":{…},…}
//   …
//   {"kind":"end","turns":2,"rows":13}
//
// `exportThread` reads the thread a page at a time (`getChunksAfter`, forwards by seq), so a long
// thread is never held in memory whole. `importThread` checks every line, then stores the rows
// turn by turn with `appendTurn`: a turn is one transaction, and with `onExistingThread:
// 'append'` a turn already in the target thread is not written again, so importing the same file
// twice changes nothing. Seqs, turn ids, contents, times, statuses and usage come back.
import { createReadStream } from 'node:fs';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ChunkStore } from 'chunklog/store';
import {
  exportThread as exportLines,
  type ImportThreadResult,
  importThread as importLines,
} from 'chunklog/transfer';

export interface ExportResult {
  /** Turns written. */
  readonly turns: number;
  /** Rows written. */
  readonly rows: number;
}

/** Writes `threadId` to `out` as JSONL, reading it `pageSize` rows at a time. */
export async function exportThread(
  store: ChunkStore,
  threadId: string,
  out: Writable,
  pageSize = 500,
): Promise<ExportResult> {
  const result = { turns: 0, rows: 0 };
  async function* counted() {
    // `path: 'active'`: of a conversation with versions (an edited or regenerated turn), the
    // path its reader sees; without it such a conversation is refused. A plain thread is the same.
    for await (const line of exportLines(store, threadId, { pageSize, path: 'active' })) {
      if (line.startsWith('{"kind":"end"')) Object.assign(result, JSON.parse(line));
      yield line;
    }
  }
  // `end: false`: standard output stays open.
  await pipeline(Readable.from(counted()), out, { end: false });
  return result;
}

/** Reads a JSONL export into `store`, as the thread `threadId` (default: the exported id). */
export function importThread(
  store: ChunkStore,
  file: string,
  threadId?: string,
): Promise<ImportThreadResult> {
  return importLines(store, createReadStream(file), {
    ...(threadId !== undefined ? { threadId } : {}),
    onExistingThread: 'append', // a second import of the same file writes nothing
  });
}
