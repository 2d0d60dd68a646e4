// @vitest-environment happy-dom
// useChunkThread across a switch of thread (a new `threadId`): what it says about the old thread
// (its error, its last turn) is not shown for the new one, and an answer about the old thread
// that comes after the switch changes nothing. Its last turn is what a turn it followed live
// reported at its end, never the replay of a stored turn.
import { act, createElement, type ReactElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChunkThread, useChunkThread } from '../../src/react/index.js';
import { FakeConversation } from '../window/support/conversation.js';
import { turnOf } from '../window/support/events.js';
import { storedDrafts } from '../window/support/page-source.js';
import { mountLive, type ScriptedSource } from './support/live-thread.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const unmounts: Array<() => void> = [];
afterEach(() => {
  for (const unmount of unmounts.splice(0)) act(unmount);
});

/** A promise and its resolve function. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

function Capture({
  threadId,
  fetch,
  take,
}: {
  threadId: string;
  fetch: typeof globalThis.fetch;
  take: (thread: ChunkThread) => void;
}): ReactElement {
  const thread = useChunkThread({
    threadId,
    basePath: '/api',
    fetch,
    live: false,
    alternatives: false,
  });
  take(thread);
  return createElement('p', null, thread.snapshot.groups.length);
}

describe('useChunkThread after a switch of thread', () => {
  it("shows nothing of the old thread's error, and drops a failure about it that comes late", async () => {
    const b = new FakeConversation('b');
    b.append(storedDrafts('t0', turnOf('t0', 1, 'answer'), 'question'));
    const slowA = gate();
    let failA = true;
    const fetch = async (input: RequestInfo | URL): Promise<Response> => {
      const url = new URL(String(input), 'http://app.example');
      if (url.pathname.startsWith('/api/threads/a/')) {
        if (!failA) await slowA.opened;
        return Response.json({ error: { message: 'A is down.' } }, { status: 500 });
      }
      return Response.json(b.page({ limit: Number(url.searchParams.get('limit')) }));
    };
    let thread: ChunkThread | undefined;
    const take = (value: ChunkThread) => {
      thread = value;
    };
    const root = createRoot(document.createElement('div'));
    unmounts.push(() => root.unmount());
    await act(async () => root.render(createElement(Capture, { threadId: 'a', fetch, take })));
    await expect.poll(() => thread?.error).toBeDefined();

    await act(async () => root.render(createElement(Capture, { threadId: 'b', fetch, take })));
    expect(thread?.error).toBeUndefined();
    await expect.poll(() => thread?.snapshot.groups.length).toBe(2);

    // Back on A, whose page now answers late: B is shown again before A's failure arrives.
    failA = false;
    let loadingA: Promise<void> | undefined;
    await act(async () => root.render(createElement(Capture, { threadId: 'a', fetch, take })));
    await act(async () => {
      loadingA = thread?.loadOlder();
    });
    await act(async () => root.render(createElement(Capture, { threadId: 'b', fetch, take })));
    await act(async () => {
      slowA.open();
      await loadingA;
    });
    expect(thread?.error).toBeUndefined();
  });
});

/**
 * useChunkThread following thread `a` (one stored turn, `t0`), its page read from a fake
 * conversation and its events from a scripted source.
 */
async function followedThread() {
  const chat = new FakeConversation('a');
  chat.append(storedDrafts('t0', turnOf('t0', 1, 'old answer'), 'old question'));
  const fetch = async (input: RequestInfo | URL): Promise<Response> => {
    const url = new URL(String(input), 'http://app.example');
    return Response.json(chat.page({ limit: Number(url.searchParams.get('limit')) }));
  };
  let thread: ChunkThread | undefined;
  const take = (value: ChunkThread) => {
    thread = value;
  };
  const { sources, unmount } = await mountLive(fetch, take);
  unmounts.push(unmount);
  await expect.poll(() => thread?.snapshot.groups.length).toBe(2);
  return { chat, source: sources.at(-1) as ScriptedSource, thread: () => thread };
}

describe("useChunkThread's last turn", () => {
  it('is not set by the replay of a stored turn, and is set when a turn followed live ends', async () => {
    const { source, thread } = await followedThread();
    const usage = { inputTokens: 10, outputTokens: 999 };
    // The relay replays the latest turn, stored, to a reader that connects without an id.
    await act(async () => {
      turnOf('t0', 1, 'old answer').forEach((event, index) => {
        source.send(event.type === 'turn-end' ? { ...event, usage } : event, `t0:${index}`);
      });
    });
    expect(thread()?.lastTurn).toBeUndefined();
    await act(async () => {
      for (const event of turnOf('t1', 1, 'new answer')) {
        source.send(
          event.type === 'turn-end' ? { ...event, usage, finishReason: 'stop' } : event,
          '',
        );
      }
    });
    expect(thread()?.lastTurn).toEqual({ turnId: 't1', usage, finishReason: 'stop' });
  });

  it('names the turn followed live whose rows a reconcile found stored before its turn-end', async () => {
    const { chat, source, thread } = await followedThread();
    const turn = turnOf('t1', 1, 'new answer');
    await act(async () => {
      for (const [index, event] of turn.slice(0, -1).entries()) source.send(event, `t1:${index}`);
    });
    expect(thread()?.snapshot.liveTurnId).toBe('t1');
    // The server stores the turn, then publishes its turn-end; a gap in between makes the window
    // read the tail, which holds the turn whole.
    chat.append(storedDrafts('t1', turn, 'new question'));
    await act(async () => source.gap());
    await expect.poll(() => thread()?.snapshot.liveTurnId).toBeNull();
    const usage = { inputTokens: 3, outputTokens: 4 };
    await act(async () => {
      source.send({ type: 'turn-end', usage, finishReason: 'stop' }, `t1:${turn.length - 1}`);
    });
    expect(thread()?.lastTurn).toEqual({ turnId: 't1', usage, finishReason: 'stop' });
  });
});
