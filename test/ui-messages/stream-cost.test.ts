// What a reader of `toUIMessageStream` costs per event, counted rather than timed (see
// support/work-counter.ts): it must not grow with the turn. A reader used to re-read every chunk
// and re-slice the open block's whole text on each delta, so a turn cost O(n²) per reader.
import type { UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { createTurnState, reduceTurn, type TurnState } from '../../src/reducer/index.js';
import type { ChunkEvent } from '../../src/schema/index.js';
import { toUIMessageStream, UIChunkDiffer } from '../../src/ui-messages/index.js';
import { countWork } from './support/work-counter.js';

async function* replay(events: readonly ChunkEvent[]): AsyncGenerator<ChunkEvent> {
  for (const event of events) yield event;
}

async function drain(stream: ReadableStream<UIMessageChunk>): Promise<number> {
  const reader = stream.getReader();
  let count = 0;
  for (;;) {
    const { done } = await reader.read();
    if (done) return count;
    count++;
  }
}

const DELTA = 'word ';

/** A turn of about `n` streamed events, in the shape `body` makes them. */
function turn(body: ChunkEvent[]): ChunkEvent[] {
  return [{ type: 'turn-start', turnId: 't' }, ...body, { type: 'turn-end', finishReason: 'stop' }];
}

const deltas = (type: 'text-delta' | 'reasoning-delta', id: string, n: number): ChunkEvent[] =>
  Array.from({ length: n }, () => ({ type, id, text: DELTA }));

/** The shapes of turn measured, each with about `n` events. */
const SHAPES: Record<string, (n: number) => ChunkEvent[]> = {
  'one long text block': (n) =>
    turn([
      { type: 'step-start' },
      { type: 'text-start', id: 'a' },
      ...deltas('text-delta', 'a', n),
      { type: 'text-end', id: 'a' },
      { type: 'step-finish', finishReason: 'stop' },
    ]),
  'reasoning then text': (n) =>
    turn([
      { type: 'step-start' },
      { type: 'reasoning-start', id: 'r' },
      ...deltas('reasoning-delta', 'r', n / 2),
      { type: 'reasoning-end', id: 'r', providerMetadata: { anthropic: { signature: 'sig' } } },
      { type: 'text-start', id: 'a' },
      ...deltas('text-delta', 'a', n / 2),
      { type: 'text-end', id: 'a' },
      { type: 'step-finish', finishReason: 'stop' },
    ]),
  'bare text deltas (no block start)': (n) =>
    turn([
      { type: 'step-start' },
      ...Array.from({ length: n }, () => ({ type: 'text-delta' as const, text: DELTA })),
    ]),
  'streamed tool input': (n) =>
    turn([
      { type: 'step-start' },
      { type: 'tool-input-start', toolCallId: 'c', toolName: 'write' },
      ...Array.from({ length: n }, () => ({
        type: 'tool-input-delta' as const,
        toolCallId: 'c',
        delta: '"ab",',
      })),
      { type: 'tool-call', toolCallId: 'c', toolName: 'write', input: { ok: true } },
      { type: 'tool-result', toolCallId: 'c', output: 'done' },
    ]),
  'text while a tool streams progress': (n) =>
    turn([
      { type: 'step-start' },
      { type: 'tool-call', toolCallId: 'c', toolName: 'run', input: {} },
      { type: 'text-start', id: 'a' },
      ...Array.from({ length: n / 2 }, (): ChunkEvent[] => [
        { type: 'text-delta', id: 'a', text: DELTA },
        { type: 'tool-progress', toolCallId: 'c', text: 'line\n' },
      ]).flat(),
      { type: 'text-end', id: 'a' },
      { type: 'tool-result', toolCallId: 'c', output: 'done' },
    ]),
  'many steps (text, a tool call and its result each)': (n) =>
    turn(
      Array.from({ length: n / 20 }, (_, step): ChunkEvent[] => [
        { type: 'step-start' },
        { type: 'reasoning-start', id: `r${step}` },
        ...deltas('reasoning-delta', `r${step}`, 6),
        { type: 'reasoning-end', id: `r${step}` },
        { type: 'text-start', id: `a${step}` },
        ...deltas('text-delta', `a${step}`, 6),
        { type: 'text-end', id: `a${step}` },
        { type: 'tool-call', toolCallId: `c${step}`, toolName: 'read', input: { step } },
        { type: 'tool-result', toolCallId: `c${step}`, output: { step } },
        { type: 'step-finish', finishReason: 'tool-calls' },
      ]).flat(),
    ),
};

/** The string work of a reader, per event: the reducer, the differ and the event checks. */
async function streamChars(events: readonly ChunkEvent[]): Promise<number> {
  let sent = 0;
  const work = await countWork(async () => {
    sent = await drain(toUIMessageStream(replay(events)));
  });
  expect(sent).toBeGreaterThan(events.length / 4);
  return work.chars / events.length;
}

/**
 * The chunks the differ reads per event, fed as toUIMessageStream feeds it. The states are folded
 * first: the reducer's own reads (a tool call looks for its id through the turn) are not the
 * differ's.
 */
async function differReads(events: readonly ChunkEvent[]): Promise<number> {
  const states: TurnState[] = [];
  let state = createTurnState();
  for (const event of events) {
    state = reduceTurn(state, event);
    states.push(state);
  }
  let sent = 0;
  const work = await countWork(async () => {
    const differ = new UIChunkDiffer();
    for (const [i, event] of events.entries()) {
      const now = states[i] as TurnState;
      if (event.type === 'turn-start') continue;
      sent += (event.type === 'turn-end' ? differ.finish(now) : differ.update(now, event)).length;
    }
  });
  expect(sent).toBeGreaterThan(events.length / 4);
  return work.chunkReads / events.length;
}

describe('a reader of toUIMessageStream', () => {
  for (const [shape, make] of Object.entries(SHAPES)) {
    it(`costs no more per event in a 10× longer turn: ${shape}`, async () => {
      const short = make(200);
      const long = make(2000);
      // Flat within a small constant: a cost proportional to the turn would be about 10× here.
      expect(await streamChars(long)).toBeLessThanOrEqual((await streamChars(short)) * 1.25 + 8);
      expect(await differReads(long)).toBeLessThanOrEqual((await differReads(short)) * 1.25 + 1);
    });
  }
});
