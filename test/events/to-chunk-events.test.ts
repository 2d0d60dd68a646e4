// toChunkEvents: one test per AI SDK stream part type, with the exact events it becomes.
import {
  APICallError,
  DefaultGeneratedFile,
  RetryError,
  type TextStreamPart,
  type ToolSet,
} from 'ai';
import { describe, expect, it } from 'vitest';
import {
  ABORT_TEXT,
  NO_EVENT_PART_TYPES,
  STREAM_PART_TYPES,
  type StreamPartType,
  toChunkEvent,
  toChunkEvents,
} from '../../src/events/index.js';
import { ChunkEventSchema } from '../../src/schema/index.js';

type Part = TextStreamPart<ToolSet>;

const usage = {
  inputTokens: 10,
  inputTokenDetails: { noCacheTokens: 4, cacheReadTokens: 6, cacheWriteTokens: undefined },
  outputTokens: 20,
  outputTokenDetails: { textTokens: 15, reasoningTokens: 5 },
  totalTokens: 30,
  raw: { anything: 1 },
};
const flatUsage = {
  inputTokens: 10,
  outputTokens: 20,
  totalTokens: 30,
  reasoningTokens: 5,
  cacheReadTokens: 6,
};
const call = {
  type: 'tool-call',
  toolCallId: 'c1',
  toolName: 'weather',
  input: { city: 'Paris' },
} as const;
const urlSource = {
  type: 'source',
  sourceType: 'url',
  id: 's1',
  url: 'https://example.com',
  title: 'Example',
  providerMetadata: { anthropic: { pageAge: null } },
} as const;

/** One sample per part type (typed exhaustively) with the events it must give. */
const CASES: { readonly [K in StreamPartType]: ReadonlyArray<readonly [Part, unknown[]]> } = {
  start: [[{ type: 'start' }, []]],
  'start-step': [
    [{ type: 'start-step', request: { body: '{}' }, warnings: [] }, [{ type: 'step-start' }]],
  ],
  'text-start': [
    [
      {
        type: 'text-start',
        id: 't',
        providerMetadata: { openai: { itemId: 'msg', gone: undefined } },
      },
      [{ type: 'text-start', id: 't', providerMetadata: { openai: { itemId: 'msg' } } }],
    ],
  ],
  'text-delta': [
    [{ type: 'text-delta', id: 't', text: 'Hi' }, [{ type: 'text-delta', id: 't', text: 'Hi' }]],
  ],
  'text-end': [
    [
      {
        type: 'text-end',
        id: 't',
        citations: [{ source: urlSource, citedText: 'quote', startIndex: 0, endIndex: 5 }],
      },
      [
        {
          type: 'text-end',
          id: 't',
          citations: [
            {
              source: {
                sourceType: 'url',
                id: 's1',
                url: 'https://example.com',
                title: 'Example',
                providerMetadata: { anthropic: { pageAge: null } },
              },
              startIndex: 0,
              endIndex: 5,
              citedText: 'quote',
            },
          ],
        },
      ],
    ],
    [{ type: 'text-end', id: 't', citations: [] }, [{ type: 'text-end', id: 't' }]],
  ],
  'reasoning-start': [
    [
      {
        type: 'reasoning-start',
        id: 'r',
        providerMetadata: { anthropic: { redactedData: 'xyz' } },
      },
      [
        {
          type: 'reasoning-start',
          id: 'r',
          providerMetadata: { anthropic: { redactedData: 'xyz' } },
        },
      ],
    ],
  ],
  'reasoning-delta': [
    [
      {
        type: 'reasoning-delta',
        id: 'r',
        text: '',
        providerMetadata: { anthropic: { signature: 'S' } },
      },
      [
        {
          type: 'reasoning-delta',
          id: 'r',
          text: '',
          providerMetadata: { anthropic: { signature: 'S' } },
        },
      ],
    ],
  ],
  'reasoning-end': [
    [
      {
        type: 'reasoning-end',
        id: 'r',
        providerMetadata: { openai: { reasoningEncryptedContent: 'B' } },
      },
      [
        {
          type: 'reasoning-end',
          id: 'r',
          providerMetadata: { openai: { reasoningEncryptedContent: 'B' } },
        },
      ],
    ],
  ],
  custom: [
    [
      {
        type: 'custom',
        kind: 'anthropic.fallback',
        providerMetadata: { anthropic: { from: { model: 'a' }, to: { model: 'b' } } },
      },
      [
        {
          type: 'custom',
          kind: 'anthropic.fallback',
          providerMetadata: { anthropic: { from: { model: 'a' }, to: { model: 'b' } } },
        },
      ],
    ],
  ],
  'tool-input-start': [
    [
      {
        type: 'tool-input-start',
        id: 'c1',
        toolName: 'web_search',
        providerExecuted: true,
        dynamic: false,
        title: 'Search',
      },
      [
        {
          type: 'tool-input-start',
          toolCallId: 'c1',
          toolName: 'web_search',
          providerExecuted: true,
          title: 'Search',
        },
      ],
    ],
  ],
  'tool-input-delta': [
    [
      { type: 'tool-input-delta', id: 'c1', delta: '{"q"' },
      [{ type: 'tool-input-delta', toolCallId: 'c1', delta: '{"q"' }],
    ],
  ],
  'tool-input-end': [[{ type: 'tool-input-end', id: 'c1' }, []]],
  'tool-call': [
    [
      { ...call, providerMetadata: { openai: { itemId: 'fc' } } },
      [
        {
          type: 'tool-call',
          toolCallId: 'c1',
          toolName: 'weather',
          input: { city: 'Paris' },
          providerMetadata: { openai: { itemId: 'fc' } },
        },
      ],
    ],
    [
      {
        type: 'tool-call',
        toolCallId: 'c2',
        toolName: 'nope',
        input: '{broken',
        dynamic: true,
        invalid: true,
        error: new Error('no such tool'),
      },
      [
        {
          type: 'tool-call',
          toolCallId: 'c2',
          toolName: 'nope',
          input: '{broken',
          dynamic: true,
          invalid: true,
        },
      ],
    ],
  ],
  'tool-result': [
    [
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'weather',
        input: {},
        output: { at: new Date(0), x: undefined },
      },
      [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'weather',
          output: { at: '1970-01-01T00:00:00.000Z' },
        },
      ],
    ],
    [
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'weather',
        input: {},
        output: { step: 1 },
        preliminary: true,
      },
      [{ type: 'tool-progress', toolCallId: 'c1', output: { step: 1 } }],
    ],
    [
      { type: 'tool-result', toolCallId: 'c1', toolName: 'weather', input: {}, output: undefined },
      [{ type: 'tool-result', toolCallId: 'c1', toolName: 'weather', output: null }],
    ],
  ],
  'tool-error': [
    [
      {
        type: 'tool-error',
        toolCallId: 'c1',
        toolName: 'weather',
        input: {},
        error: new TypeError('boom'),
      },
      [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'weather',
          output: 'TypeError: boom',
          isError: true,
        },
      ],
    ],
    [
      {
        type: 'tool-error',
        toolCallId: 'c1',
        toolName: 'web_search',
        input: {},
        error: { type: 'web_search_tool_result_error', errorCode: 'max_uses_exceeded' },
        providerExecuted: true,
      },
      [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'web_search',
          output: { type: 'web_search_tool_result_error', errorCode: 'max_uses_exceeded' },
          isError: true,
          providerExecuted: true,
        },
      ],
    ],
  ],
  'tool-output-denied': [
    [
      { type: 'tool-output-denied', toolCallId: 'c1', toolName: 'weather' },
      [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'weather',
          output: null,
          isError: true,
          denied: true,
        },
      ],
    ],
  ],
  'tool-approval-request': [
    [
      {
        type: 'tool-approval-request',
        approvalId: 'p1',
        toolCall: call,
        reason: 'costly',
        isAutomatic: false,
        signature: 'hmac',
      },
      [
        {
          type: 'tool-approval-request',
          toolCallId: 'c1',
          approvalId: 'p1',
          reason: 'costly',
          isAutomatic: false,
          signature: 'hmac',
        },
      ],
    ],
  ],
  'tool-approval-response': [
    [
      {
        type: 'tool-approval-response',
        approvalId: 'p1',
        toolCall: call,
        approved: false,
        reason: 'no',
      },
      [
        {
          type: 'tool-approval-response',
          approvalId: 'p1',
          approved: false,
          reason: 'no',
          toolCallId: 'c1',
        },
      ],
    ],
  ],
  source: [
    [
      urlSource,
      [
        {
          type: 'source',
          source: {
            sourceType: 'url',
            id: 's1',
            url: 'https://example.com',
            title: 'Example',
            providerMetadata: { anthropic: { pageAge: null } },
          },
        },
      ],
    ],
    [
      {
        type: 'source',
        sourceType: 'document',
        id: 'd1',
        mediaType: 'application/pdf',
        title: 'Doc',
        filename: 'doc.pdf',
      },
      [
        {
          type: 'source',
          source: {
            sourceType: 'document',
            id: 'd1',
            mediaType: 'application/pdf',
            title: 'Doc',
            filename: 'doc.pdf',
          },
        },
      ],
    ],
  ],
  file: [
    [
      {
        type: 'file',
        file: new DefaultGeneratedFile({ data: new Uint8Array([1, 2, 3]), mediaType: 'image/png' }),
      },
      [{ type: 'file', mediaType: 'image/png', data: 'AQID' }],
    ],
  ],
  'reasoning-file': [
    [
      {
        type: 'reasoning-file',
        file: new DefaultGeneratedFile({ data: 'AQID', mediaType: 'image/png' }),
        providerMetadata: { google: { thought: true } },
      },
      [
        {
          type: 'file',
          mediaType: 'image/png',
          data: 'AQID',
          providerMetadata: { google: { thought: true } },
          reasoning: true,
        },
      ],
    ],
  ],
  'steering-message': [
    [
      {
        type: 'steering-message',
        id: 's1',
        message: { role: 'user', content: 'also check b' },
        stepNumber: 2,
      },
      [{ type: 'steering-message', id: 's1', text: 'also check b', step: 2 }],
    ],
    [
      {
        type: 'steering-message',
        id: 's2',
        message: {
          role: 'user',
          content: [
            { type: 'text', text: 'one' },
            { type: 'image', image: 'https://example.com/x.png' },
            { type: 'text', text: 'two' },
          ],
        },
        stepNumber: 1,
      },
      [{ type: 'steering-message', id: 's2', text: 'one\ntwo', step: 1 }],
    ],
  ],
  'finish-step': [
    [
      {
        type: 'finish-step',
        response: { id: 'resp', timestamp: new Date(0), modelId: 'claude-x' },
        usage,
        performance: {} as never,
        finishReason: 'content-filter',
        rawFinishReason: 'refusal',
        providerMetadata: {
          anthropic: { stopDetails: { type: 'refusal', category: 'cyber' }, x: undefined },
        },
      },
      [
        {
          type: 'step-finish',
          finishReason: 'content-filter',
          usage: flatUsage,
          modelId: 'claude-x',
          providerMetadata: { anthropic: { stopDetails: { type: 'refusal', category: 'cyber' } } },
        },
      ],
    ],
  ],
  finish: [
    [
      { type: 'finish', finishReason: 'stop', rawFinishReason: 'end_turn', totalUsage: usage },
      [{ type: 'turn-end', finishReason: 'stop', usage: flatUsage }],
    ],
  ],
  abort: [
    [
      { type: 'abort', reason: 'user pressed stop' },
      [{ type: 'system', kind: 'cancelled', text: 'user pressed stop' }],
    ],
    [{ type: 'abort' }, [{ type: 'system', kind: 'cancelled', text: ABORT_TEXT }]],
  ],
  error: [
    [
      {
        type: 'error',
        error: new APICallError({
          message: 'Overloaded',
          url: 'https://api',
          requestBodyValues: {},
          statusCode: 529,
        }),
      },
      [
        {
          type: 'error',
          message: 'Overloaded',
          statusCode: 529,
          kind: 'overloaded',
          retryable: true,
        },
      ],
    ],
    [
      {
        type: 'error',
        error: new RetryError({
          message: 'Failed after 3 attempts. Last error: Rate limited',
          reason: 'maxRetriesExceeded',
          errors: [1, 2, 3].map(
            () =>
              new APICallError({
                message: 'Rate limited',
                url: 'u',
                requestBodyValues: {},
                statusCode: 429,
              }),
          ),
        }),
      },
      [
        {
          type: 'error',
          message: 'Failed after 3 attempts. Last error: Rate limited',
          statusCode: 429,
          kind: 'rate-limit',
          retryable: true,
          attempts: 3,
        },
      ],
    ],
    [{ type: 'error', error: 'plain text' }, [{ type: 'error', message: 'plain text' }]],
    [{ type: 'error', error: { code: 7 } }, [{ type: 'error', message: '{"code":7}' }]],
    [{ type: 'error', error: undefined }, [{ type: 'error', message: 'unknown error' }]],
  ],
  raw: [[{ type: 'raw', rawValue: { anything: true } }, []]],
  ping: [[{ type: 'ping' }, []]],
};

const cases = Object.entries(CASES).flatMap(([type, list]) =>
  list.map(([part, events], i) => [`${type} #${i + 1}`, part, events] as const),
);

describe('toChunkEvents', () => {
  it('has cases for every stream part type, and maps exactly the documented ones to nothing', () => {
    expect(Object.keys(CASES).sort()).toEqual([...STREAM_PART_TYPES].sort());
    const empty = Object.entries(CASES)
      .filter(([, list]) => list.every(([, events]) => events.length === 0))
      .map(([type]) => type);
    expect(empty.sort()).toEqual([...NO_EVENT_PART_TYPES].sort());
  });

  it.each(cases)('%s', (_name, part, expected) => {
    const events = toChunkEvents(part);
    expect(events).toStrictEqual(expected);
    for (const event of events) {
      expect(JSON.parse(JSON.stringify(event))).toStrictEqual(event);
      expect(ChunkEventSchema.parse(event)).toStrictEqual(event);
    }
  });

  it('ignores a part type it does not know (a newer ai) instead of throwing', () => {
    expect(toChunkEvents({ type: 'from-the-future' } as unknown as Part)).toEqual([]);
    expect(toChunkEvent({ type: 'from-the-future' } as unknown as Part)).toBeUndefined();
  });

  it('toChunkEvent gives the one event (or undefined) that toChunkEvents lists', () => {
    for (const [, part, expected] of cases) {
      expect(toChunkEvent(part)).toStrictEqual(expected[0]);
    }
  });
});
