import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  ANTHROPIC_MAX_BREAKPOINTS,
  anthropicCachedSystem,
  applyAnthropicCaching,
  ChunklogError,
} from '../../src/index.js';
import {
  anthropicStream,
  cacheSegments,
  captureSdkWarnings,
  prefixUpTo,
  recordingFetch,
  scriptedAnthropic,
} from './support/anthropic-script.js';
import {
  breakpointCount,
  expectStableCaching,
  runTurn,
  type Segments,
  stepScripts,
} from './support/cache-run.js';

const marker = { anthropic: { cacheControl: { type: 'ephemeral' } } };

const markedIndexes = (messages: readonly ModelMessage[]) =>
  messages.flatMap((m, i) => {
    const partMarked =
      typeof m.content !== 'string' &&
      (m.content as Array<{ providerOptions?: { anthropic?: { cacheControl?: unknown } } }>).some(
        (p) => p.providerOptions?.anthropic?.cacheControl !== undefined,
      );
    return m.providerOptions?.anthropic?.cacheControl !== undefined || partMarked ? [i] : [];
  });

const conversation: ModelMessage[] = [
  { role: 'user', content: 'u0' },
  {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: 'a', toolName: 't', input: {} }],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 'a', toolName: 't', output: { type: 'text', value: 'r' } },
    ],
  },
  {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: 'b', toolName: 't', input: {} }],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 'b', toolName: 't', output: { type: 'text', value: 'r' } },
    ],
  },
  { role: 'user', content: 'steer' },
  { role: 'assistant', content: 'a' },
  { role: 'user', content: 'u1' },
];

describe('applyAnthropicCaching (placement)', () => {
  it('marks the newest input ends, keeping one breakpoint for the system prompt', () => {
    const out = applyAnthropicCaching(conversation);
    // Input ends: 0 (u0), 2 (tool), 5 (tool + steer run), 7 (u1): the newest three.
    expect(markedIndexes(out)).toEqual([2, 5, 7]);
    expect(out[7]?.providerOptions).toStrictEqual(marker);
    expect(out[2]?.content).toStrictEqual([
      {
        type: 'tool-result',
        toolCallId: 'a',
        toolName: 't',
        output: { type: 'text', value: 'r' },
        providerOptions: marker,
      },
    ]);
    expect(out[0]).toBe(conversation[0]);
    expect(conversation[7]?.providerOptions).toBeUndefined();
  });

  it('uses all four without a system breakpoint, and marks a leading system message when there is one', () => {
    expect(markedIndexes(applyAnthropicCaching(conversation, { systemBreakpoint: false }))).toEqual(
      [0, 2, 5, 7],
    );
    const withSystem = applyAnthropicCaching([{ role: 'system', content: 's' }, ...conversation]);
    expect(markedIndexes(withSystem)).toEqual([0, 3, 6, 8]);
    expect(markedIndexes(applyAnthropicCaching(conversation, { maxBreakpoints: 2 }))).toEqual([7]);
  });

  it('replaces earlier markers instead of adding to them (safe to apply again in prepareStep)', () => {
    const once = applyAnthropicCaching(conversation.slice(0, 3));
    const again = applyAnthropicCaching([...once, ...conversation.slice(3)]);
    expect(again).toStrictEqual(applyAnthropicCaching(conversation));
    const foreign: ModelMessage = {
      role: 'user',
      content: 'x',
      providerOptions: {
        anthropic: { cacheControl: { type: 'ephemeral' }, other: 1 },
        openai: { a: 1 },
      },
    };
    expect(applyAnthropicCaching([foreign], { maxBreakpoints: 1 })).toStrictEqual([
      {
        role: 'user',
        content: 'x',
        providerOptions: { anthropic: { other: 1 }, openai: { a: 1 } },
      },
    ]);
  });

  it('skips inputs that would send no block, and never marks assistant messages', () => {
    const out = applyAnthropicCaching([
      { role: 'user', content: 'real' },
      { role: 'user', content: [{ type: 'text', text: '' }] },
      { role: 'assistant', content: 'x' },
    ]);
    expect(markedIndexes(out)).toEqual([0]);
  });

  it('places a ttl and validates options', () => {
    expect(
      applyAnthropicCaching([{ role: 'user', content: 'x' }], { ttl: '1h' })[0]?.providerOptions,
    ).toStrictEqual({
      anthropic: { cacheControl: { type: 'ephemeral', ttl: '1h' } },
    });
    for (const [options, option] of [
      [{ maxBreakpoints: 5 }, 'maxBreakpoints'],
      [{ maxBreakpoints: 0 }, 'maxBreakpoints'],
      [{ ttl: '2h' }, 'ttl'],
      [{ systemBreakpoint: 'yes' }, 'systemBreakpoint'],
      [{ breakpoints: 3 }, 'breakpoints'],
    ] as const) {
      try {
        applyAnthropicCaching([], options as never);
        expect.unreachable();
      } catch (error) {
        expect(ChunklogError.hasCode(error, 'invalid-option')).toBe(true);
        expect((error as ChunklogError).option).toBe(option);
      }
    }
    expect(anthropicCachedSystem('s', { ttl: '1h' })).toStrictEqual({
      role: 'system',
      content: 's',
      providerOptions: { anthropic: { cacheControl: { type: 'ephemeral', ttl: '1h' } } },
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Through the real @ai-sdk/anthropic provider.

const warnings = captureSdkWarnings();

describe('applyAnthropicCaching through @ai-sdk/anthropic', () => {
  it('three consecutive steps: every earlier breakpoint stays put, its prefix byte-identical; never more than four', async () => {
    const recorder = recordingFetch(
      stepScripts.slice(0, 3).map((blocks) => anthropicStream(blocks)),
    );
    await runTurn(scriptedAnthropic(recorder), [{ role: 'user', content: 'Read my project.' }], 3);
    const bodies = recorder.bodies;
    expect(bodies).toHaveLength(3);
    for (const body of bodies)
      expect(breakpointCount(body)).toBeLessThanOrEqual(ANTHROPIC_MAX_BREAKPOINTS);
    const segments = bodies.map(cacheSegments);
    // The system prompt's breakpoint plus one per step so far.
    expect(segments.map((s) => [s.systemMarks, s.marked.length])).toEqual([
      [1, 1],
      [1, 2],
      [1, 3],
    ]);
    for (let k = 0; k + 1 < segments.length; k++) {
      const [now, next] = [segments[k], segments[k + 1]] as [Segments, Segments];
      expect(next.header).toBe(now.header);
      for (const at of now.marked) {
        // Markers included: the breakpoint is still there, on the same block, same bytes before it.
        expect(prefixUpTo(next, at)).toBe(prefixUpTo(now, at));
        expect(next.marked).toContain(at);
      }
    }
    // The newest breakpoint is on the tool results that end each request.
    for (const s of segments) expect(s.marked.at(-1)).toBe(s.blocks.length - 1);
    expect(warnings).toEqual([]);
  });

  it('over a longer run the oldest breakpoint is dropped, and the cached content up to every breakpoint stays identical', async () => {
    const scripts = [
      ...stepScripts,
      [{ type: 'text', text: 'Second answer.' } as const],
      ...stepScripts,
    ];
    const recorder = recordingFetch(scripts.map((blocks) => anthropicStream(blocks)));
    const model = scriptedAnthropic(recorder);
    let history = await runTurn(model, [{ role: 'user', content: 'Read my project.' }], 4);
    history = await runTurn(
      model,
      [...history, { role: 'user', content: 'Thanks. Anything else?' }],
      1,
    );
    history.push({ role: 'user', content: 'Read it again.' });
    await runTurn(model, history, 4);

    expect(recorder.bodies).toHaveLength(9);
    const dropped = expectStableCaching(recorder.bodies);
    expect(dropped).toBeGreaterThan(0);
    expect(warnings).toEqual([]);
  });
});
