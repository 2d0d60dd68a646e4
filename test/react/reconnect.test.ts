// @vitest-environment happy-dom
// useChunkThread when its event stream drops and comes back (a server restarting): a failure of
// the outage stays in `error` while the stream reconnects and is cleared when it opens again
// (`connection` 'open', `error` undefined in the same render), whether the browser reconnected by
// itself or gave up and the hook opened a new stream; a failure after that open is shown again.
// A first page that failed while the server was away is loaded when the stream opens.
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ChunklogError } from '../../src/index.js';
import type { ChunkThread } from '../../src/react/index.js';
import { FakeConversation } from '../window/support/conversation.js';
import { turnOf } from '../window/support/events.js';
import { storedDrafts } from '../window/support/page-source.js';
import { mountLive, type ScriptedSource } from './support/live-thread.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const unmounts: Array<() => void> = [];
afterEach(() => {
  for (const unmount of unmounts.splice(0)) act(unmount);
});

/** What each render showed: the connection and the error, together. */
interface Seen {
  readonly connection: ChunkThread['connection'];
  readonly error: unknown;
}

/** Thread `a` (one stored turn) behind a server the test takes down and brings back. */
async function mount(options: { down?: boolean } = {}) {
  const chat = new FakeConversation('a');
  chat.append(storedDrafts('t0', turnOf('t0', 1, 'old answer'), 'old question'));
  const server = { down: options.down ?? false };
  const fetch = async (input: RequestInfo | URL): Promise<Response> => {
    if (server.down) throw new TypeError('fetch failed'); // no answer at all
    const url = new URL(String(input), 'http://app.example');
    return Response.json(chat.page({ limit: Number(url.searchParams.get('limit')) }));
  };
  let thread: ChunkThread | undefined;
  const seen: Seen[] = [];
  const take = (value: ChunkThread) => {
    thread = value;
    seen.push({ connection: value.connection, error: value.error });
  };
  // Each stream starts connecting: the test opens it.
  const { sources, unmount } = await mountLive(fetch, take, 0);
  unmounts.push(unmount);
  return {
    server,
    seen,
    thread: () => thread as ChunkThread,
    source: () => sources.at(-1) as ScriptedSource,
    sources,
  };
}

const codeOf = (error: unknown) => (ChunklogError.isInstance(error) ? error.code : error);

describe('useChunkThread after its event stream reconnects', () => {
  it('clears the error of the outage when the stream opens again, and shows a later one', async () => {
    const { server, seen, thread, source } = await mount();
    await act(async () => source().open());
    await expect.poll(() => thread().snapshot.groups.length).toBe(2);
    expect(thread().connection).toBe('open');

    // The server goes away: the stream drops, and the window's reconcile on a gap fails.
    server.down = true;
    await act(async () => source().drop());
    expect(thread().connection).toBe('connecting');
    await act(async () => source().gap());
    await expect.poll(() => codeOf(thread().error)).toBe('load-failed');
    expect(thread().connection).toBe('connecting');

    // Back: the browser reconnects by itself. The stream is live: the outage's error is gone,
    // in the very render that says so.
    server.down = false;
    seen.length = 0;
    await act(async () => source().open());
    expect(thread().connection).toBe('open');
    expect(thread().error).toBeUndefined();
    expect(seen.filter((s) => s.connection === 'open' && s.error !== undefined)).toEqual([]);

    // A failure after the open is shown: the reconnected stream's gap cannot be reconciled.
    server.down = true;
    await act(async () => source().gap());
    await expect.poll(() => codeOf(thread().error)).toBe('load-failed');
    expect(thread().connection).toBe('open');
  });

  it('clears it too when the browser gave up and the hook opened a new stream', async () => {
    const { server, thread, source, sources } = await mount();
    await act(async () => source().open());
    await expect.poll(() => thread().snapshot.groups.length).toBe(2);
    server.down = true;
    await act(async () => source().gap());
    await expect.poll(() => codeOf(thread().error)).toBe('load-failed');

    await act(async () => source().drop(true)); // a 503: the browser gives up
    expect(thread().connection).toBe('connecting');
    // The hook opens a new stream after a second or so.
    await expect.poll(() => sources.length, { timeout: 10_000 }).toBe(2);
    server.down = false;
    await act(async () => source().open());
    expect(thread().connection).toBe('open');
    expect(thread().error).toBeUndefined();
  });

  it('loads a first page that failed while the server was away when the stream opens', async () => {
    const { server, thread, source } = await mount({ down: true });
    await expect.poll(() => codeOf(thread().error)).toBe('load-failed');
    expect(thread().snapshot.groups).toEqual([]);

    // The stream opens while the page still fails: the error stays, it is the page's own.
    await act(async () => source().open());
    await expect.poll(() => codeOf(thread().error)).toBe('load-failed');
    expect(thread().snapshot.groups).toEqual([]);

    // Dropped, then open again with the server back: the page loads, and the error goes.
    await act(async () => source().drop());
    server.down = false;
    await act(async () => source().open());
    await expect.poll(() => thread().snapshot.groups.length).toBe(2);
    expect(thread().error).toBeUndefined();
    expect(thread().connection).toBe('open');
  });
});
