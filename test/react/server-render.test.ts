// chunklog/react on a server (this Node process has no window, document or EventSource): the
// hooks render a window's snapshot with renderToString, and useChunkThread renders its empty
// state without touching a browser global or the network.
import { createElement, type ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useChunkThread, useChunkWindow, useLiveTurn } from '../../src/react/index.js';
import { ChunkWindow } from '../../src/window/index.js';

function WindowView({ window }: { window: ChunkWindow }): ReactElement {
  const { groups } = useChunkWindow(window);
  const turn = useLiveTurn(window);
  return createElement(
    'ul',
    { 'data-turn': turn.status },
    groups.map((m) =>
      createElement(
        'li',
        { key: m.id },
        `${m.role}: ${m.chunks.map((c) => ('text' in c ? c.text : c.type)).join('')}`,
      ),
    ),
  );
}

function ThreadView({ calls }: { calls: string[] }): ReactElement {
  const thread = useChunkThread({
    threadId: 't1',
    fetch: async (input) => {
      calls.push(String(input));
      return new Response('{}');
    },
  });
  return createElement(
    'p',
    null,
    `${thread.turn.status} ${thread.snapshot.groups.length} ${thread.connection}`,
  );
}

describe('chunklog/react on a server', () => {
  it('has no browser globals to lean on here', () => {
    expect(typeof (globalThis as { document?: unknown }).document).toBe('undefined');
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
  });

  it('renders a preloaded window: its messages and the live turn status', async () => {
    const window = new ChunkWindow({
      limit: 10,
      loadPage: () => ({
        chunks: [
          {
            threadId: 'th',
            seq: 1,
            turnId: 't1',
            step: 0,
            role: 'user',
            type: 'text',
            data: { text: 'Hi <b>' },
          },
          {
            threadId: 'th',
            seq: 2,
            turnId: 't1',
            step: 0,
            role: 'assistant',
            type: 'text',
            data: { text: 'Hello' },
          },
        ],
        total: 2,
        oldestSeq: 1,
        hasMore: false,
      }),
    });
    await window.loadOlder();
    window.apply({ type: 'turn-start', turnId: 't2' });
    expect(renderToString(createElement(WindowView, { window }))).toBe(
      '<ul data-turn="running"><li>user: Hi &lt;b&gt;</li><li>assistant: Hello</li></ul>',
    );
  });

  it('renders useChunkThread empty and idle, calling no fetch', () => {
    const calls: string[] = [];
    expect(renderToString(createElement(ThreadView, { calls }))).toBe('<p>idle 0 connecting</p>');
    expect(calls).toEqual([]);
  });
});
