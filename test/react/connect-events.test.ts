// connectThreadEvents with a scripted EventSource: events reach the window, a turn-end or a gap
// reconciles it with the page source, a malformed event is reported and reconciled, not thrown,
// and closing stops everything.
import { describe, expect, it } from 'vitest';
import type { ChunkEvent } from '../../src/index.js';
import {
  type ConnectionStatus,
  connectThreadEvents,
  type EventSourceLike,
} from '../../src/react/index.js';
import { ChunkWindow } from '../../src/window/index.js';

class FakeEventSource implements EventSourceLike {
  onmessage: ((message: MessageEvent) => unknown) | null = null;
  onopen: ((event: Event) => unknown) | null = null;
  onerror: ((event: Event) => unknown) | null = null;
  readyState = 0;
  closed = false;
  readonly gapListeners: Array<(event: MessageEvent) => void> = [];
  constructor(readonly url: string) {}
  addEventListener(_type: 'gap', listener: (event: MessageEvent) => void): void {
    this.gapListeners.push(listener);
  }
  close(): void {
    this.closed = true;
    this.readyState = 2;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  send(data: unknown): void {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(data) }));
  }
}

function setup() {
  const pages: Array<number | undefined> = [];
  const window = new ChunkWindow({
    limit: 50,
    loadPage: ({ before }) => {
      pages.push(before);
      return { chunks: [], total: 0, oldestSeq: null, hasMore: false };
    },
  });
  let source: FakeEventSource | undefined;
  const applied: string[] = [];
  const statuses: ConnectionStatus[] = [];
  const errors: unknown[] = [];
  const close = connectThreadEvents(window, '/api/threads/t/events', {
    createEventSource: (url) => {
      source = new FakeEventSource(url);
      return source;
    },
    onEvent: (event) => applied.push(event.type),
    onStatus: (status) => statuses.push(status),
    onError: (error) => errors.push(error),
  });
  return { window, source: source as FakeEventSource, pages, applied, statuses, errors, close };
}

const turn: ChunkEvent[] = [
  { type: 'turn-start', turnId: 't1' },
  { type: 'text-start', id: 'a' },
  { type: 'text-delta', id: 'a', text: 'Hi' },
  { type: 'text-end', id: 'a' },
];

describe('connectThreadEvents', () => {
  it('applies every event in order and reconciles on turn-end', async () => {
    const { window, source, pages, applied, statuses } = setup();
    expect(source.url).toBe('/api/threads/t/events');
    source.open();
    for (const event of turn) source.send(event);
    expect(window.getSnapshot().liveTurnId).toBe('t1');
    expect(window.getSnapshot().groups.at(-1)?.chunks).toEqual([
      { type: 'text', step: 0, text: 'Hi', id: 'a' },
    ]);
    expect(pages).toEqual([]);
    source.send({ type: 'turn-end', finishReason: 'stop' });
    expect(applied).toEqual(['turn-start', 'text-start', 'text-delta', 'text-end', 'turn-end']);
    await expect.poll(() => pages.length).toBe(1); // the tail, fetched once the turn ended
    expect(statuses).toEqual(['connecting', 'open']);
  });

  it('reconciles on a gap, and reports a malformed event instead of throwing', async () => {
    const { window, source, pages, errors, applied } = setup();
    for (const listener of source.gapListeners) listener(new MessageEvent('gap', { data: '{}' }));
    await expect.poll(() => pages.length).toBe(1);
    source.send({ type: 'text-delta', text: 42 });
    expect(errors).toHaveLength(1);
    expect((errors[0] as { code: string }).code).toBe('invalid-event');
    expect(applied).toEqual([]);
    expect(window.getSnapshot().liveTurnId).toBe(null);
    source.onmessage?.(new MessageEvent('message', { data: 'not json' }));
    expect(errors).toHaveLength(2);
  });

  it('reports a retrying stream as connecting, and stops everything once closed', () => {
    const { source, statuses, applied, close, window } = setup();
    source.open();
    source.onerror?.(new Event('error')); // readyState stays 0 while the browser retries
    expect(statuses).toEqual(['connecting', 'open', 'connecting']);
    close();
    close();
    expect(source.closed).toBe(true);
    expect(statuses).toEqual(['connecting', 'open', 'connecting', 'closed']);
    source.send(turn[0]);
    expect(applied).toEqual([]);
    expect(window.getSnapshot().liveTurnId).toBe(null);
  });
});
