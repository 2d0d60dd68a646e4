// @vitest-environment happy-dom
// useChunkThread's steer: it resolves to the steering id the server answered (the id a cancel's
// `dropped` list names), to undefined on a refusal with the failure in `error`, and a steer that
// goes through clears that error.
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ChunklogError } from '../../src/index.js';
import type { ChunkThread } from '../../src/react/index.js';
import { FakeConversation } from '../window/support/conversation.js';
import { mountLive } from './support/live-thread.js';

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
