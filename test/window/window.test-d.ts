import { describe, expectTypeOf, it } from 'vitest';
import type { ChatMessage, ChunkRow } from '../../src/schema/index.js';
import type {
  Alternatives,
  ChunkStore,
  ChunkPage as StoreChunkPage,
} from '../../src/store/index.js';
import type {
  AlternativesSnapshot,
  ChunkAlternatives,
  ChunkPage,
  ChunkWindow,
  ChunkWindowSnapshot,
  ConversationVersion,
  LoadPage,
  LogEntry,
  ThreadAlternatives,
  TurnVersions,
} from '../../src/window/index.js';

// React's useSyncExternalStore, typed here without React.
declare function useSyncExternalStore<T>(
  subscribe: (onStoreChange: () => void) => () => void,
  getSnapshot: () => T,
  getServerSnapshot?: () => T,
): T;

describe('window types', () => {
  it("takes the store's alternatives as the routes send them", () => {
    expectTypeOf<Alternatives>().toExtend<ThreadAlternatives>();
    expectTypeOf<Alternatives['versions'][number]>().toExtend<ConversationVersion>();
    const alternatives = {} as ChunkAlternatives;
    expectTypeOf(
      useSyncExternalStore(alternatives.subscribe, alternatives.getSnapshot),
    ).toEqualTypeOf<AlternativesSnapshot>();
    expectTypeOf(alternatives.versionsOf('t')).toEqualTypeOf<TurnVersions | undefined>();
  });

  it('binds to useSyncExternalStore as it is', () => {
    const window = {} as ChunkWindow;
    expectTypeOf(
      useSyncExternalStore(window.subscribe, window.getSnapshot, window.getSnapshot),
    ).toEqualTypeOf<ChunkWindowSnapshot>();
  });

  it('narrows log entries by `live`', () => {
    const entry = {} as LogEntry;
    if (entry.live) {
      expectTypeOf(entry.seq).toEqualTypeOf<null>();
      expectTypeOf(entry.pending).toEqualTypeOf<boolean>();
    } else {
      expectTypeOf(entry.seq).toEqualTypeOf<number>();
      expectTypeOf(entry.threadId).toEqualTypeOf<string>();
    }
    expectTypeOf<ChunkWindowSnapshot['groups']>().toEqualTypeOf<readonly ChatMessage[]>();
  });

  it('takes a store page and a loadPage over HTTP', () => {
    const storePage = {} as {
      chunks: ChunkRow[];
      total: number;
      oldestSeq: number | null;
      hasMore: boolean;
    };
    expectTypeOf(storePage).toExtend<ChunkPage>();
    const overHttp: LoadPage = async ({ limit, before }) =>
      (await fetch(`/chunks?limit=${limit}&before=${before ?? ''}`)).json() as Promise<ChunkPage>;
    expectTypeOf(overHttp).toExtend<LoadPage>();
  });

  it('is the store page, both ways, and a store is a page source as it is', () => {
    expectTypeOf<StoreChunkPage>().toEqualTypeOf<ChunkPage>();
    const store = {} as ChunkStore;
    const loadPage: LoadPage = (request) => store.getChunks('thread-1', request);
    expectTypeOf(loadPage).toExtend<LoadPage>();
  });
});
