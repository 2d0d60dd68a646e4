// connectThreadEvents with a scripted EventSource: events reach the window, a turn-end or a gap
// reconciles it with the page source, a malformed event is reported and reconciled (once for a
// run of them), not thrown, a stream the browser gave up on is opened again from the last event
// seen, and closing stops everything.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChunkEvent, ChunkRow } from '../../src/index.js';
import {
  type ConnectionStatus,
  connectThreadEvents,
  type EventSourceLike,
} from '../../src/react/index.js';
import { ChunkWindow } from '../../src/window/index.js';
import { turnOf } from '../window/support/events.js';
import { flush, MemoryThread, storedDrafts } from '../window/support/page-source.js';

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
  send(data: unknown, lastEventId = ''): void {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(data), lastEventId }));
  }
  /** The browser gives up on the stream (an answer other than 200). */
  fail(): void {
    this.readyState = 2;
    this.onerror?.(new Event('error'));
  }
}

afterEach(() => {
  vi.useRealTimers();
});

function setup(rows: readonly ChunkRow[] = []) {
  const pages: Array<number | undefined> = [];
  const window = new ChunkWindow({
    limit: 50,
    loadPage: ({ before }) => {
      pages.push(before);
      const chunks = before === undefined ? rows : [];
      return { chunks, total: rows.length, oldestSeq: chunks[0]?.seq ?? null, hasMore: false };
    },
  });
  let source: FakeEventSource | undefined;
  const sources: FakeEventSource[] = [];
  const applied: string[] = [];
  const statuses: ConnectionStatus[] = [];
  const errors: unknown[] = [];
  const close = connectThreadEvents(window, '/api/threads/t/events', {
    createEventSource: (url) => {
      source = new FakeEventSource(url);
      sources.push(source);
      return source;
    },
    onEvent: (event) => applied.push(event.type),
    onStatus: (status) => statuses.push(status),
    onError: (error) => errors.push(error),
  });
  return {
    window,
    source: source as FakeEventSource,
    sources,
    pages,
    applied,
    statuses,
    errors,
    close,
  };
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
    // A run of refused events is reported and reconciled once; an applied event ends the run.
    source.onmessage?.(new MessageEvent('message', { data: 'not json' }));
    expect(errors).toHaveLength(1);
    source.send(turn[0]);
    source.onmessage?.(new MessageEvent('message', { data: 'not json' }));
    expect(errors).toHaveLength(2);
  });

  it('reconciles once for a run of events it refuses (a newer server), not once per event', async () => {
    const { source, pages, errors } = setup();
    source.open();
    source.send(turn[0]);
    for (let i = 0; i < 200; i++) source.send({ type: 'text-delta-v2', text: `${i}` });
    await expect.poll(() => pages.length).toBe(1);
    expect(errors).toHaveLength(1);
    source.send({ type: 'turn-end' });
    await expect.poll(() => pages.length).toBe(2);
  });

  it('goes on folding a turn another process took over (its turn-start again, not as event 0)', () => {
    const { window, source } = setup();
    source.open();
    turn.forEach((event, index) => {
      source.send(event, `t1:${index}`);
    });
    // The process that ran t1 died; another continues it after the events sent of it.
    source.send({ type: 'turn-start', turnId: 't1' }, 't1:4');
    source.send({ type: 'text-start', id: 'b' }, 't1:5');
    source.send({ type: 'text-delta', id: 'b', text: 'More' }, 't1:6');
    expect(window.getSnapshot().liveTurnId).toBe('t1');
    const texts = window
      .getSnapshot()
      .groups.at(-1)
      ?.chunks.map((chunk) => (chunk.type === 'text' ? chunk.text : chunk.type));
    expect(texts).toEqual(['Hi', 'More']);
    // A replay from its start (event 0) is folded again from nothing, as before.
    source.send({ type: 'turn-start', turnId: 't1' }, 't1:0');
    source.send({ type: 'text-start', id: 'a' }, 't1:1');
    source.send({ type: 'text-delta', id: 'a', text: 'Hi' }, 't1:2');
    expect(window.getSnapshot().groups.at(-1)?.chunks).toHaveLength(1);
  });

  it('neither reports nor reconciles the replay of a turn the window holds as stored rows', async () => {
    const thread = new MemoryThread();
    const stored = turnOf('t0', 1, 'old answer');
    thread.append(storedDrafts('t0', stored, 'old question'));
    const { window, source, pages, applied } = setup(thread.rows);
    await window.loadOlder();
    const held = window.getSnapshot();
    // A reader without an id gets the latest turn again, though it is stored.
    stored.forEach((event, index) => {
      source.send(event, `t0:${index}`);
    });
    await flush();
    expect(applied).toEqual([]);
    expect(pages).toEqual([undefined]); // the first page only: no reconcile
    expect(window.getSnapshot()).toBe(held);
    // A turn followed live is reported and reconciled at its end.
    for (const event of [...turn, { type: 'turn-end' } satisfies ChunkEvent]) source.send(event);
    expect(applied).toEqual(['turn-start', 'text-start', 'text-delta', 'text-end', 'turn-end']);
    await expect.poll(() => pages).toEqual([undefined, undefined]);
  });

  it('opens a stream the browser gave up on again, from the last event seen, until closed', () => {
    vi.useFakeTimers();
    const { sources, statuses, applied, close } = setup();
    const first = sources[0] as FakeEventSource;
    first.open();
    first.send(turn[0], 't1:0');
    first.send(turn[1], 't1:1');
    first.fail(); // a 503 while the server restarts
    expect(statuses).toEqual(['connecting', 'open', 'connecting']);
    expect(first.closed).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(sources).toHaveLength(2);
    const second = sources[1] as FakeEventSource;
    expect(second.url).toBe('/api/threads/t/events?lastEventId=t1%3A1');
    second.fail(); // again: the next wait is longer (1 to 2 s)
    vi.advanceTimersByTime(999);
    expect(sources).toHaveLength(2);
    vi.advanceTimersByTime(1001);
    expect(sources).toHaveLength(3);
    const third = sources[2] as FakeEventSource;
    third.open();
    expect(statuses.at(-1)).toBe('open');
    // What an abandoned stream still says is not applied.
    first.send(turn[2], 't1:2');
    third.send(turn[2], 't1:2');
    expect(applied).toEqual(['turn-start', 'text-start', 'text-delta']);
    third.fail();
    close();
    vi.advanceTimersByTime(60_000);
    expect(sources).toHaveLength(3);
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
