// @vitest-environment happy-dom
// useChunkThread's control of the running turn. steer resolves to the steering id the server
// answered (the id a cancel's `dropped` list names), to undefined on a refusal with the failure in
// `error`, and a steer that goes through clears that error. A cancel the server answers "not
// running" for the turn shown as running (a server that restarted mid-turn: its end never comes)
// reloads the window from the store, so the page no longer shows a turn running that none runs.
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

describe('useChunkThread steer', () => {
  it('resolves to the steering id, or to undefined with the refusal in error until one goes through', async () => {
    const chat = new FakeConversation('a');
    const posted: unknown[] = [];
    let refuse = true;
    const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const url = new URL(String(input), 'http://app.example');
      if (init?.method !== 'POST') {
        return Response.json(chat.page({ limit: Number(url.searchParams.get('limit')) }));
      }
      posted.push({ path: url.pathname, body: JSON.parse(String(init.body)) });
      if (refuse)
        return Response.json({ error: 'not-running', message: 'no turn' }, { status: 409 });
      return Response.json({ steeringId: `s${posted.length}` }, { status: 202 });
    };
    let thread: ChunkThread | undefined;
    const { unmount } = await mountLive(fetch, (value) => {
      thread = value;
    });
    unmounts.push(unmount);
    const current = () => thread as ChunkThread;

    let refused: unknown = 'unset';
    await act(async () => {
      refused = await current().steer('and the time');
    });
    expect(refused).toBeUndefined();
    const error = current().error;
    expect(ChunklogError.isInstance(error) && error.code).toBe('request-failed');

    refuse = false;
    let steered: unknown;
    await act(async () => {
      steered = await current().steer('and the date');
    });
    expect(steered).toEqual({ steeringId: 's2' });
    expect(current().error).toBeUndefined();
    expect(posted).toEqual([
      { path: '/api/threads/a/messages', body: { text: 'and the time', mode: 'steer' } },
      { path: '/api/threads/a/messages', body: { text: 'and the date', mode: 'steer' } },
    ]);
  });
});

describe('useChunkThread cancel', () => {
  it('of a turn no server runs (its end never came) reloads the window: the turn no longer shows running', async () => {
    const chat = new FakeConversation('a');
    chat.append(storedDrafts('t0', turnOf('t0', 1, 'old answer'), 'old question'));
    const cancels: unknown[] = [];
    const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const url = new URL(String(input), 'http://app.example');
      if (init?.method === 'POST') {
        cancels.push(JSON.parse(String(init.body)));
        return Response.json({ error: 'not-running', message: 'no turn runs' }, { status: 409 });
      }
      return Response.json(chat.page({ limit: Number(url.searchParams.get('limit')) }));
    };
    let thread: ChunkThread | undefined;
    const { sources, unmount } = await mountLive(fetch, (value) => {
      thread = value;
    });
    unmounts.push(unmount);
    const current = () => thread as ChunkThread;
    await expect.poll(() => current().snapshot.groups.length).toBe(2);

    // A turn streams, then its server dies: no `turn-end` ever comes for it.
    const source = sources.at(-1) as ScriptedSource;
    const events = turnOf('t1', 1, 'half an answer').slice(0, -2);
    await act(async () => {
      events.forEach((event, i) => {
        source.send(event, `t1:${i}`);
      });
    });
    expect(current().turn).toMatchObject({ status: 'running', turnId: 't1' });
    expect(current().snapshot.groups).toHaveLength(3);

    let cancelled: boolean | undefined;
    await act(async () => {
      cancelled = await current().cancel('Stop');
    });
    expect(cancelled).toBe(false);
    expect(cancels).toEqual([{ reason: 'Stop', turnId: 't1' }]);
    expect(current().turn.status).toBe('idle');
    expect(current().snapshot.groups.map((message) => message.turnId)).toEqual(['t0', 't0']);
    expect(current().error).toBeUndefined();
  });
});
