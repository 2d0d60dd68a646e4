// useChunkThread following thread `a` from an event stream the test drives: the stream, the
// component, and mounting it (shared by the React tests of live behaviour).
import { act, createElement, type ReactElement } from 'react';
import { createRoot } from 'react-dom/client';
import type { ChunkEvent } from '../../../src/index.js';
import {
  type ChunkThread,
  type EventSourceLike,
  useChunkThread,
} from '../../../src/react/index.js';

/** An event stream the test drives: it opens, feeds events, drops, and the browser retries or gives up. */
export class ScriptedSource implements EventSourceLike {
  onmessage: ((message: MessageEvent) => unknown) | null = null;
  onopen: ((event: Event) => unknown) | null = null;
  onerror: ((event: Event) => unknown) | null = null;
  readonly #gaps: Array<(message: MessageEvent) => unknown> = [];

  /** @param readyState - 0 (connecting: `open()` opens it) or 1 (open from the start) */
  constructor(public readyState = 1) {}

  addEventListener(type: string, listener: (message: MessageEvent) => unknown): void {
    if (type === 'gap') this.#gaps.push(listener);
  }
  close(): void {
    this.readyState = 2;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  send(event: ChunkEvent, lastEventId: string): void {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(event), lastEventId }));
  }
  /** The connection dropped: the browser retries by itself (`gaveUp` false) or gives up. */
  drop(gaveUp = false): void {
    this.readyState = gaveUp ? 2 : 0;
    this.onerror?.(new Event('error'));
  }
  /** A `gap` event: the server no longer has the events after the last id; the window reconciles. */
  gap(): void {
    for (const listener of this.#gaps) listener(new MessageEvent('gap', { data: '{}' }));
  }
}

/** useChunkThread following thread `a`'s live events; each render is given to `take`. */
function Live({
  fetch,
  createEventSource,
  take,
}: {
  fetch: typeof globalThis.fetch;
  createEventSource: (url: string) => EventSourceLike;
  take: (thread: ChunkThread) => void;
}): ReactElement {
  const thread = useChunkThread({
    threadId: 'a',
    basePath: '/api',
    fetch,
    alternatives: false,
    createEventSource,
  });
  take(thread);
  return createElement('p', null, thread.snapshot.groups.length);
}

/**
 * Mounts {@link Live} over `fetch`, each event stream it opens a new {@link ScriptedSource} in
 * state `readyState`.
 *
 * @returns the sources it opened, oldest first, and the unmount (for the test's `afterEach`)
 */
export async function mountLive(
  fetch: typeof globalThis.fetch,
  take: (thread: ChunkThread) => void,
  readyState = 1,
): Promise<{ sources: ScriptedSource[]; unmount: () => void }> {
  const sources: ScriptedSource[] = [];
  const createEventSource = () => {
    const source = new ScriptedSource(readyState);
    sources.push(source);
    return source;
  };
  const root = createRoot(document.createElement('div'));
  await act(async () => root.render(createElement(Live, { fetch, createEventSource, take })));
  return { sources, unmount: () => root.unmount() };
}
