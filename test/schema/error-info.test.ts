// The error fields of issue 33 (kind, retryable, attempts, provider, modelId) are optional: rows
// stored before them still parse, unchanged, at every boundary (the store's fast check, the row
// schemas, the window's page schema, explode/group, UI messages), and new rows keep them all.
import { describe, expect, it } from 'vitest';
import { createTurnState, reduceTurn } from '../../src/reducer/index.js';
import {
  ChunkEventSchema,
  type ChunkRow,
  ChunkRowSchema,
  ChunkSchema,
  describeError,
  errorNextStep,
  errorTitle,
  parseChunkPage,
  pickErrorInfo,
  RowDataSchemas,
} from '../../src/schema/index.js';
import { rowDataIsExact } from '../../src/schema/row-data-check.js';
import { explodeTurn, groupRowsToMessages } from '../../src/transforms/index.js';
import { uiMessagesToChatMessages } from '../../src/ui-messages/index.js';
import { toUIMessages } from '../../src/ui-messages/to-ui-messages.js';

const oldData = { message: 'Network error', statusCode: 503 };
const newData = {
  message: 'invalid x-api-key',
  statusCode: 401,
  kind: 'auth',
  retryable: false,
  attempts: 2,
  provider: 'anthropic.messages',
  modelId: 'claude-x',
} as const;

function rows(data: object): ChunkRow[] {
  return [
    {
      threadId: 'th',
      seq: 1,
      turnId: 't1',
      step: 0,
      role: 'user',
      type: 'text',
      data: { text: 'hi' },
    },
    { threadId: 'th', seq: 2, turnId: 't1', step: 0, role: 'assistant', type: 'error', data },
  ] as ChunkRow[];
}

describe.each([
  ['an old error row (message and status only)', oldData],
  ['an error row with every new field', newData],
  ['an error row with only a message', { message: 'boom' }],
])('%s', (_name, data) => {
  it('passes the fast check and the row schemas unchanged', () => {
    expect(rowDataIsExact('error', data)).toBe(true);
    expect(RowDataSchemas.error.parse(data)).toStrictEqual(data);
    const [, row] = rows(data);
    expect(ChunkRowSchema.parse(row)).toStrictEqual(row);
  });

  it("passes the window's page schema (zod/mini) unchanged", () => {
    const page = { chunks: rows(data), total: 2, oldestSeq: 1, hasMore: false };
    expect(parseChunkPage(page)).toStrictEqual(page);
  });

  it('round-trips through group and explode, and through UI messages', async () => {
    const messages = groupRowsToMessages(rows(data));
    const chunk = messages[1]?.chunks[0];
    expect(chunk).toStrictEqual({ type: 'error', step: 0, ...data });
    expect(ChunkSchema.parse(chunk)).toStrictEqual(chunk);
    const drafts = explodeTurn('t1', messages[1]?.chunks ?? [], { role: 'assistant' });
    expect(drafts.map((d) => d.data)).toStrictEqual([data]);
    const back = await uiMessagesToChatMessages(toUIMessages(messages));
    expect(back[1]?.chunks).toStrictEqual([{ type: 'error', step: 0, ...data }]);
  });

  it('travels as an event and folds into the same chunk', () => {
    const event = { type: 'error', ...data };
    expect(ChunkEventSchema.parse(event)).toStrictEqual(event);
    const state = reduceTurn(createTurnState(), event as never);
    expect(state.chunks).toStrictEqual([{ type: 'error', step: 0, ...data }]);
  });
});

describe('error fields the schemas refuse', () => {
  it.each([
    [{ ...newData, kind: 'weird' }],
    [{ ...newData, attempts: 0 }],
    [{ ...newData, attempts: 1.5 }],
    [{ ...newData, retryable: 'yes' }],
    [{ ...newData, modelId: 7 }],
  ])('%j', (data) => {
    expect(rowDataIsExact('error', data)).toBe(false);
    expect(RowDataSchemas.error.safeParse(data).success).toBe(false);
  });
});

describe('the words for an error', () => {
  it('derive the next step of an old row from its status', () => {
    expect(errorNextStep(oldData)).toBe(
      'the provider is overloaded: wait a moment, then send again',
    );
    expect(describeError(oldData)).toBe(
      'Error (HTTP 503): Network error — the provider is overloaded: wait a moment, then send again',
    );
  });

  it('name the model, the status and the attempts', () => {
    expect(errorTitle(newData)).toBe('Error from anthropic claude-x (HTTP 401, 2 attempts)');
    expect(describeError(newData)).toBe(
      'Error from anthropic claude-x (HTTP 401, 2 attempts): invalid x-api-key — check the API key, then send again',
    );
    expect(errorTitle({ message: 'x', modelId: 'gpt-5' })).toBe('Error from gpt-5');
    expect(errorTitle({ message: 'x', provider: 'openai', attempts: 1 })).toBe('Error from openai');
    expect(describeError({ message: 'boom' })).toBe('Error: boom');
    expect(describeError({ message: 'boom', retryable: true })).toBe('Error: boom — send again');
  });

  it('a stored kind wins over the status', () => {
    expect(errorNextStep({ message: 'x', statusCode: 500, kind: 'network' })).toBe(
      'check the network connection, then send again',
    );
  });

  it('pickErrorInfo copies the error fields only, in a fixed order, without undefined', () => {
    const picked = pickErrorInfo({
      modelId: 'm',
      type: 'error',
      step: 3,
      message: 'x',
      kind: undefined,
      statusCode: 429,
    } as never);
    expect(picked).toStrictEqual({ message: 'x', statusCode: 429, modelId: 'm' });
    expect(Object.keys(picked)).toEqual(['message', 'statusCode', 'modelId']);
  });
});
