// Shared helpers of the session tests: a real SQLite file store, deterministic ids, and compact
// views of events and rows for exact comparisons.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentSession, EventMeta } from '../../src/entries/session.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import type { ChunkRow } from '../../src/schema/chunk-row.js';
import { createChunkStore } from './store.js';

/** A store over a fresh SQLite file, and how to remove it. */
export async function openSqliteStore(file?: string): Promise<{
  store: Awaited<ReturnType<typeof createChunkStore>>;
  path: string;
  dispose: () => Promise<void>;
}> {
  const dir = file === undefined ? mkdtempSync(join(tmpdir(), 'chunklog-session-')) : undefined;
  const path = file ?? join(dir as string, 'thread.db');
  const store = await createChunkStore(path);
  return {
    store,
    path,
    dispose: async () => {
      await store.close();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Ids `t1`, `t2`, … (turns and steering messages share the sequence). */
export function sequentialIds(prefix = 't'): () => string {
  let next = 0;
  return () => `${prefix}${++next}`;
}

/** Every event a session publishes, with its wire id. */
export function recordEvents(session: AgentSession): {
  readonly events: Array<{ event: ChunkEvent; meta: EventMeta }>;
  ofTurn(turnId: string): ChunkEvent[];
  stop(): void;
} {
  const events: Array<{ event: ChunkEvent; meta: EventMeta }> = [];
  const stop = session.subscribe((event, meta) => events.push({ event, meta }));
  return {
    events,
    ofTurn: (turnId) => events.filter((e) => e.meta.turnId === turnId).map((e) => e.event),
    stop,
  };
}

/** Rows without `createdAt` (set by the store's clock). */
export function plainRows(rows: readonly ChunkRow[]): Array<Omit<ChunkRow, 'createdAt'>> {
  return rows.map(({ createdAt: _createdAt, ...row }) => row);
}

/** A promise and the function that resolves it. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** The events of a streamed text or reasoning block: start, one delta per piece, end. */
export function block(
  kind: 'text' | 'reasoning',
  id: string,
  pieces: readonly string[],
  signature?: string,
): ChunkEvent[] {
  const events: ChunkEvent[] = [{ type: `${kind}-start`, id }];
  for (const text of pieces) events.push({ type: `${kind}-delta`, id, text });
  if (signature !== undefined) {
    events.push({
      type: 'reasoning-delta',
      id,
      text: '',
      providerMetadata: { anthropic: { signature } },
    });
  }
  events.push({ type: `${kind}-end`, id });
  return events;
}

/** The events of a client tool call whose input streams in one piece. */
export function toolCall(toolCallId: string, toolName: string, input: object): ChunkEvent[] {
  return [
    { type: 'tool-input-start', toolCallId, toolName },
    { type: 'tool-input-delta', toolCallId, delta: JSON.stringify(input) },
    { type: 'tool-call', toolCallId, toolName, input: input as never },
  ];
}
