// Every ordered pair (and triple) of event kinds, generated from CHUNK_EVENT_TYPES,
// checked against a deliberately simple model of the open/close/coalesce rules. A kind added to
// the schema fails to compile here (the sample table and the model's switch are exhaustive) and
// fails at run time if it has no sample.
import { describe, expect, it } from 'vitest';
import { foldTurn } from '../../src/reducer/index.js';
import {
  CHUNK_EVENT_TYPES,
  type Chunk,
  type ChunkEvent,
  type ChunkEventOf,
  type ChunkEventType,
  ChunkSchema,
  type ChunkType,
} from '../../src/schema/index.js';

// One sample per kind. Blocks use one id per kind, deltas are bare (no id, as the plan's app saw
// them), and every tool event names the same call, so that pairs interact.
const SAMPLES: { readonly [K in ChunkEventType]: ChunkEventOf<K> } = {
  'turn-start': { type: 'turn-start', turnId: 't' },
  'turn-end': { type: 'turn-end', finishReason: 'stop' },
  'step-start': { type: 'step-start' },
  'step-finish': { type: 'step-finish', finishReason: 'stop' },
  'text-start': { type: 'text-start', id: 'x' },
  'text-delta': { type: 'text-delta', text: 'a' },
  'text-end': { type: 'text-end', id: 'x' },
  'reasoning-start': { type: 'reasoning-start', id: 'r' },
  'reasoning-delta': { type: 'reasoning-delta', text: 'b' },
  'reasoning-end': { type: 'reasoning-end', id: 'r' },
  custom: { type: 'custom', kind: 'p.marker' },
  'tool-input-start': { type: 'tool-input-start', toolCallId: 'c', toolName: 'n' },
  'tool-input-delta': { type: 'tool-input-delta', toolCallId: 'c', delta: '{}' },
  'tool-call': { type: 'tool-call', toolCallId: 'c', toolName: 'n', input: {} },
  'tool-progress': { type: 'tool-progress', toolCallId: 'c', text: 'p' },
  'tool-result': { type: 'tool-result', toolCallId: 'c', output: 1 },
  'tool-approval-request': { type: 'tool-approval-request', toolCallId: 'c', approvalId: 'a' },
  'tool-approval-response': {
    type: 'tool-approval-response',
    approvalId: 'a',
    approved: true,
    toolCallId: 'c',
  },
  source: { type: 'source', source: { sourceType: 'url', id: 's', url: 'https://example.com' } },
  file: { type: 'file', mediaType: 'image/png', data: 'AA==' },
  'steering-message': { type: 'steering-message', id: 's', text: 'steer', step: 0 },
  error: { type: 'error', message: 'boom' },
  system: { type: 'system', kind: 'notice', text: 'note' },
};

// ---- The model: plain mutable arrays, the rules written out one by one. ----

interface ModelCall {
  id: string;
  orphan: boolean;
  input: boolean;
  streaming: boolean;
}
interface ModelChunk {
  type: ChunkType;
  step: number;
  text?: string;
  id?: string | undefined;
  calls?: ModelCall[];
  open?: 'block' | 'bare' | undefined;
}
interface Model {
  chunks: ModelChunk[];
  step: number;
  started: boolean;
}

function push(m: Model, chunk: ModelChunk): void {
  const last = m.chunks.at(-1);
  if (last?.open === 'bare') last.open = undefined;
  m.chunks.push(chunk);
}

function closeBlock(m: Model, chunk: ModelChunk): void {
  chunk.open = undefined;
  if (chunk.text === '') m.chunks.splice(m.chunks.indexOf(chunk), 1);
}

function closeAll(m: Model): void {
  for (const chunk of [...m.chunks]) {
    if (chunk.open === 'block') closeBlock(m, chunk);
    else chunk.open = undefined;
    for (const call of chunk.calls ?? []) call.streaming = false;
  }
}

function openBlock(m: Model, type: 'text' | 'thinking', id?: string): ModelChunk | undefined {
  return m.chunks.findLast(
    (c) => c.open === 'block' && c.type === type && (id === undefined || c.id === id),
  );
}

function findCall(m: Model, id: string): ModelCall | undefined {
  for (const chunk of [...m.chunks].reverse()) {
    const call = chunk.calls?.findLast((c) => c.id === id);
    if (call) return call;
  }
  return undefined;
}

function addCall(m: Model, call: ModelCall): void {
  const last = m.chunks.at(-1);
  if (last?.type === 'tool-batch' && last.step === m.step) last.calls?.push(call);
  else push(m, { type: 'tool-batch', step: m.step, calls: [call] });
}

function blockEvent(m: Model, type: 'text' | 'thinking', event: ChunkEvent): void {
  const id = 'id' in event && typeof event.id === 'string' ? event.id : undefined;
  if (event.type.endsWith('-start')) {
    const same = openBlock(m, type, id);
    if (same && same.id === id) closeBlock(m, same);
    push(m, { type, step: m.step, text: '', id, open: 'block' });
  } else if (event.type.endsWith('-delta')) {
    const text = (event as { text: string }).text;
    const block = id === undefined ? undefined : openBlock(m, type, id);
    const last = m.chunks.at(-1);
    if (block) block.text += text;
    else if (last?.open !== undefined && last.type === type && last.step === m.step) {
      last.text += text;
    } else push(m, { type, step: m.step, text, open: 'bare' });
  } else {
    const block = openBlock(m, type, id);
    const last = m.chunks.at(-1);
    if (block) closeBlock(m, block);
    else if (last?.open === 'bare' && last.type === type) last.open = undefined;
  }
}

function apply(m: Model, event: ChunkEvent): void {
  switch (event.type) {
    case 'turn-start':
    case 'step-finish':
      return;
    case 'step-start':
      closeAll(m);
      m.step = m.started ? m.step + 1 : 0;
      m.started = true;
      return;
    case 'turn-end':
      closeAll(m);
      return;
    case 'text-start':
    case 'text-delta':
    case 'text-end':
      blockEvent(m, 'text', event);
      return;
    case 'reasoning-start':
    case 'reasoning-delta':
    case 'reasoning-end':
      blockEvent(m, 'thinking', event);
      return;
    case 'custom':
    case 'source':
    case 'file':
    case 'error':
    case 'system':
      push(m, { type: event.type, step: m.step });
      return;
    case 'steering-message':
      push(m, { type: 'steering', step: event.step });
      return;
    case 'tool-input-start':
    case 'tool-input-delta': {
      const call = findCall(m, event.toolCallId);
      if (!call) addCall(m, { id: event.toolCallId, orphan: false, input: false, streaming: true });
      else if (event.type === 'tool-input-start') {
        call.orphan = false;
        call.streaming ||= !call.input;
      }
      return;
    }
    case 'tool-call': {
      const call = findCall(m, event.toolCallId);
      if (!call) addCall(m, { id: event.toolCallId, orphan: false, input: true, streaming: false });
      else Object.assign(call, { orphan: false, input: true, streaming: false });
      return;
    }
    case 'tool-progress':
    case 'tool-result':
    case 'tool-approval-request':
    case 'tool-approval-response': {
      const id = event.toolCallId ?? '';
      if (!findCall(m, id)) addCall(m, { id, orphan: true, input: false, streaming: false });
      return;
    }
    default: {
      const unhandled: never = event;
      throw new Error(`the model does not know ${JSON.stringify(unhandled)}`);
    }
  }
}

function runModel(events: readonly ChunkEvent[]): { chunks: unknown[]; openIndex: number | null } {
  const m: Model = { chunks: [], step: 0, started: false };
  for (const event of events) apply(m, event);
  const openIndex = m.chunks.findIndex(
    (c, i) =>
      c.open === 'block' ||
      (c.open === 'bare' && i === m.chunks.length - 1) ||
      (c.calls ?? []).some((call) => call.streaming),
  );
  return {
    chunks: m.chunks.map((c) => ({
      type: c.type,
      step: c.step,
      ...(c.text !== undefined && { text: c.text }),
      ...(c.calls && {
        calls: c.calls.map(({ id, orphan, input }) => ({ id, orphan, input })),
      }),
    })),
    openIndex: openIndex < 0 ? null : openIndex,
  };
}

function project(chunks: readonly Chunk[]): unknown[] {
  return chunks.map((c) => ({
    type: c.type,
    step: c.step,
    ...((c.type === 'text' || c.type === 'thinking') && { text: c.text }),
    ...(c.type === 'tool-batch' && {
      calls: c.calls.map((call) => ({
        id: call.id,
        orphan: call.orphan === true,
        input: call.input !== undefined,
      })),
    }),
  }));
}

const sample = (type: ChunkEventType): ChunkEvent => {
  const event = (SAMPLES as Record<string, ChunkEvent | undefined>)[type];
  if (event === undefined) throw new Error(`no sample event for the new kind ${type}`);
  return event;
};

const sequences: Array<[string, ChunkEvent[]]> = [];
for (const a of CHUNK_EVENT_TYPES) {
  for (const b of CHUNK_EVENT_TYPES) {
    sequences.push([`${a} → ${b}`, [sample(a), sample(b)]]);
    sequences.push([`${a} → ${b} → ${a}`, [sample(a), sample(b), sample(a)]]);
  }
}

describe('transitions between every ordered pair of event kinds', () => {
  it('every ordered triple of kinds matches the model too', () => {
    const mismatches: string[] = [];
    for (const a of CHUNK_EVENT_TYPES) {
      for (const b of CHUNK_EVENT_TYPES) {
        for (const c of CHUNK_EVENT_TYPES) {
          const events = [sample(a), sample(b), sample(c)];
          const state = foldTurn(events);
          const got = JSON.stringify({ chunks: project(state.chunks), openIndex: state.openIndex });
          if (got !== JSON.stringify(runModel(events))) mismatches.push(`${a} → ${b} → ${c}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('has a sample for every kind of CHUNK_EVENT_TYPES', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...CHUNK_EVENT_TYPES].sort());
    expect(sequences).toHaveLength(2 * CHUNK_EVENT_TYPES.length ** 2);
  });

  it.each(sequences)('%s', (_name, events) => {
    const state = foldTurn(events);
    const expected = runModel(events);
    expect({ chunks: project(state.chunks), openIndex: state.openIndex }).toStrictEqual(expected);
    for (const chunk of state.chunks) expect(ChunkSchema.parse(chunk)).toStrictEqual(chunk);
  });
});
