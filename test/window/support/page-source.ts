import type { ChunkRow, ChunkRowDraft } from '../../../src/schema/index.js';
import type { ChunkPage, LoadPageRequest } from '../../../src/window/index.js';

/** An in-memory thread log with dense seqs, paged like `ChunkStore.getChunks`. */
export class MemoryThread {
  readonly threadId: string;
  readonly rows: ChunkRow[] = [];

  constructor(threadId = 'thread-1') {
    this.threadId = threadId;
  }

  /** Appends a turn's drafts (one transaction), returning the stored rows. */
  append(drafts: readonly ChunkRowDraft[]): ChunkRow[] {
    const stored = drafts.map(
      (d, i) => ({ ...d, threadId: this.threadId, seq: this.rows.length + i + 1 }) as ChunkRow,
    );
    this.rows.push(...stored);
    return stored;
  }

  /** The page contract of `ChunkStore.getChunks`. */
  page({ limit, before }: LoadPageRequest): ChunkPage {
    const below = before === undefined ? this.rows : this.rows.filter((r) => r.seq < before);
    const chunks = below.slice(Math.max(0, below.length - limit));
    return {
      chunks,
      total: this.rows.length,
      oldestSeq: chunks[0]?.seq ?? null,
      hasMore: chunks.length > 0 && (chunks[0] as ChunkRow).seq > 1,
    };
  }

  /** The last `n` rows. */
  tail(n: number): ChunkRow[] {
    return this.rows.slice(Math.max(0, this.rows.length - n));
  }
}

/** A deferred page request, answered by the test. */
export interface PendingRequest {
  readonly request: LoadPageRequest;
  /** The page as the store would answer at request time. */
  readonly page: ChunkPage;
  resolve(page?: unknown): void;
  reject(error: unknown): void;
}

/** A `loadPage` whose answers the test releases one by one. */
export function controlledSource(thread: MemoryThread): {
  loadPage: (request: LoadPageRequest) => Promise<ChunkPage>;
  requests: PendingRequest[];
  next(): PendingRequest;
} {
  const requests: PendingRequest[] = [];
  return {
    requests,
    loadPage(request) {
      return new Promise<ChunkPage>((resolve, reject) => {
        const page = thread.page(request);
        requests.push({
          request,
          page,
          resolve: (p) => resolve((p ?? page) as ChunkPage),
          reject,
        });
      });
    },
    next() {
      const r = requests.shift();
      if (r === undefined) throw new Error('no pending request');
      return r;
    },
  };
}

/** Lets pending promise callbacks run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  await new Promise((r) => setTimeout(r, 0));
}

import { foldTurn } from '../../../src/reducer/index.js';
import type { ChunkEvent } from '../../../src/schema/index.js';
import { explodeTurn } from '../../../src/transforms/index.js';

/** What the session stores for a turn: the user's rows, then the assistant's. */
export function storedDrafts(
  turnId: string,
  events: readonly ChunkEvent[],
  userText?: string,
): ChunkRowDraft[] {
  const user =
    userText === undefined
      ? []
      : explodeTurn(turnId, [{ type: 'text', step: 0, text: userText }], { role: 'user' });
  return [...user, ...explodeTurn(turnId, foldTurn(events).chunks, { role: 'assistant' })];
}
