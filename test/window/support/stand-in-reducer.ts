// TEMPORARY stand-in for src/reducer (branch `reducer`), used through vi.mock until it lands on
// main. Implements the agreed signatures with just enough behaviour for the window's tests.
import type {
  Chunk,
  ChunkEvent,
  FinishReason,
  TokenUsage,
  ToolCallEntry,
} from '../../../src/schema/index.js';

export interface StepSummary {
  readonly step: number;
  readonly finishReason: FinishReason;
  readonly usage?: TokenUsage | undefined;
}

export interface TurnState {
  readonly chunks: readonly Chunk[];
  readonly chunkCount: number;
  chunkAt(index: number): Chunk | undefined;
  readonly openIndex: number | null;
  readonly evicted: number;
  readonly turnId: string | null;
  readonly assistantId: string | null;
  readonly step: number;
  readonly ended: boolean;
  readonly finishReason: FinishReason | undefined;
  readonly usage: TokenUsage | undefined;
  readonly steps: readonly StepSummary[];
}

interface Fields {
  chunks: readonly Chunk[];
  openIndex: number | null;
  evicted: number;
  turnId: string | null;
  assistantId: string | null;
  step: number;
  stepped: boolean;
  ended: boolean;
  finishReason: FinishReason | undefined;
  usage: TokenUsage | undefined;
  steps: readonly StepSummary[];
}

class State implements TurnState {
  readonly f: Fields;
  constructor(f: Fields) {
    this.f = f;
  }
  get chunks() {
    return this.f.chunks;
  }
  get chunkCount() {
    return this.f.chunks.length;
  }
  chunkAt(i: number) {
    return this.f.chunks[i];
  }
  get openIndex() {
    return this.f.openIndex;
  }
  get evicted() {
    return this.f.evicted;
  }
  get turnId() {
    return this.f.turnId;
  }
  get assistantId() {
    return this.f.assistantId;
  }
  get step() {
    return this.f.step;
  }
  get ended() {
    return this.f.ended;
  }
  get finishReason() {
    return this.f.finishReason;
  }
  get usage() {
    return this.f.usage;
  }
  get steps() {
    return this.f.steps;
  }
}

export function createTurnState(init: { turnId?: string; assistantId?: string } = {}): TurnState {
  return new State({
    chunks: [],
    openIndex: null,
    evicted: 0,
    turnId: init.turnId ?? null,
    assistantId: init.assistantId ?? null,
    step: 0,
    stepped: false,
    ended: false,
    finishReason: undefined,
    usage: undefined,
    steps: [],
  });
}

const with_ = (s: State, patch: Partial<Fields>): State => new State({ ...s.f, ...patch });
const closed = (s: State): State => (s.f.openIndex === null ? s : with_(s, { openIndex: null }));
const push = (s: State, chunk: Chunk, open = false): State => {
  const chunks = [...s.f.chunks, chunk];
  return with_(s, { chunks, openIndex: open ? chunks.length - 1 : null });
};
const replace = (s: State, i: number, chunk: Chunk, patch: Partial<Fields> = {}): State => {
  const chunks = s.f.chunks.slice();
  chunks[i] = chunk;
  return with_(s, { chunks, ...patch });
};

function findCall(s: State, id: string): { i: number; j: number } | undefined {
  for (let i = s.f.chunks.length - 1; i >= 0; i--) {
    const c = s.f.chunks[i] as Chunk;
    if (c.type !== 'tool-batch') continue;
    const j = c.calls.findIndex((call) => call.id === id);
    if (j >= 0) return { i, j };
  }
  return undefined;
}

function updateCall(
  s: State,
  id: string,
  name: string,
  fn: (c: ToolCallEntry) => ToolCallEntry,
): State {
  const at = findCall(s, id);
  if (at === undefined) {
    return push(closed(s), {
      type: 'tool-batch',
      step: s.f.step,
      calls: [fn({ id, name, orphan: true })],
    });
  }
  const batch = s.f.chunks[at.i] as Extract<Chunk, { type: 'tool-batch' }>;
  const calls = batch.calls.slice();
  calls[at.j] = fn(calls[at.j] as ToolCallEntry);
  return replace(s, at.i, { ...batch, calls });
}

function addCall(s: State, call: ToolCallEntry, open: boolean): State {
  const base = closed(s);
  const last = base.f.chunks[base.f.chunks.length - 1];
  if (last?.type === 'tool-batch' && last.step === s.f.step) {
    const i = base.f.chunks.length - 1;
    return replace(
      base,
      i,
      { ...last, calls: [...last.calls, call] },
      { openIndex: open ? i : null },
    );
  }
  return push(base, { type: 'tool-batch', step: s.f.step, calls: [call] }, open);
}

function block(s: State, kind: 'text' | 'thinking', text: string, start: boolean): State {
  const open = s.f.openIndex === null ? undefined : s.f.chunks[s.f.openIndex];
  if (!start && open?.type === kind) {
    return replace(s, s.f.openIndex as number, { ...open, text: open.text + text });
  }
  return push(closed(s), { type: kind, step: s.f.step, text }, true);
}

export function reduceTurn(state: TurnState, event: ChunkEvent): TurnState {
  const s = state as State;
  switch (event.type) {
    case 'turn-start':
      return with_(s, { turnId: event.turnId, assistantId: event.assistantId ?? s.f.assistantId });
    case 'step-start': {
      const step = event.step ?? (s.f.stepped ? s.f.step + 1 : 0);
      return with_(closed(s), { step: Math.max(step, s.f.step), stepped: true });
    }
    case 'text-start':
      return block(s, 'text', '', true);
    case 'text-delta':
      return block(s, 'text', event.text, false);
    case 'reasoning-start':
      return block(s, 'thinking', '', true);
    case 'reasoning-delta':
      return block(s, 'thinking', event.text, false);
    case 'text-end':
    case 'reasoning-end': {
      if (s.f.openIndex === null) return s;
      const open = s.f.chunks[s.f.openIndex] as Chunk;
      if (
        event.providerMetadata !== undefined &&
        (open.type === 'text' || open.type === 'thinking')
      ) {
        return replace(
          s,
          s.f.openIndex,
          { ...open, providerMetadata: event.providerMetadata },
          {
            openIndex: null,
          },
        );
      }
      return closed(s);
    }
    case 'tool-input-start':
      return addCall(s, { id: event.toolCallId, name: event.toolName, inputText: '' }, true);
    case 'tool-input-delta':
      return updateCall(s, event.toolCallId, '', (c) => ({
        ...c,
        inputText: (c.inputText ?? '') + event.delta,
      }));
    case 'tool-call': {
      if (findCall(s, event.toolCallId) !== undefined) {
        const next = updateCall(s, event.toolCallId, event.toolName, (c) => {
          const { inputText: _drop, ...rest } = c;
          return { ...rest, input: event.input };
        });
        return closed(next as State);
      }
      return addCall(s, { id: event.toolCallId, name: event.toolName, input: event.input }, false);
    }
    case 'tool-result':
      return updateCall(s, event.toolCallId, event.toolName ?? '', (c) => ({
        ...c,
        result: event.output,
        ...(event.isError === undefined ? {} : { isError: event.isError }),
      }));
    case 'tool-progress':
      return updateCall(s, event.toolCallId, '', (c) => ({
        ...c,
        ...(event.text === undefined ? {} : { progress: (c.progress ?? '') + event.text }),
        ...(event.output === undefined ? {} : { preliminary: event.output }),
      }));
    case 'error':
      return push(closed(s), {
        type: 'error',
        step: s.f.step,
        message: event.message,
        ...(event.statusCode === undefined ? {} : { statusCode: event.statusCode }),
      });
    case 'system':
      return push(closed(s), {
        type: 'system',
        step: s.f.step,
        kind: event.kind,
        text: event.text,
      });
    case 'steering-message':
      return push(closed(s), {
        type: 'steering',
        step: event.step,
        id: event.id,
        text: event.text,
      });
    case 'custom':
      return push(closed(s), { type: 'custom', step: s.f.step, kind: event.kind });
    case 'source':
      return push(closed(s), { type: 'source', step: s.f.step, source: event.source });
    case 'step-finish':
      return with_(closed(s), {
        steps: [...s.f.steps, { step: s.f.step, finishReason: event.finishReason }],
      });
    case 'turn-end':
      return with_(closed(s), {
        ended: true,
        finishReason: event.finishReason,
        usage: event.usage,
      });
    default:
      return s;
  }
}

export function evictLeadingChunks(state: TurnState, count: number): TurnState {
  const s = state as State;
  const k = Math.max(0, Math.min(count, s.f.openIndex ?? s.f.chunks.length));
  if (k === 0) return s;
  return with_(s, {
    chunks: s.f.chunks.slice(k),
    openIndex: s.f.openIndex === null ? null : s.f.openIndex - k,
    evicted: s.f.evicted + k,
  });
}

export function foldTurn(events: Iterable<ChunkEvent>, initial?: TurnState): TurnState {
  let state = initial ?? createTurnState();
  for (const event of events) state = reduceTurn(state, event);
  return state;
}
