import { describe, expect, it } from 'vitest';
import type { ChunkEvent } from '../../src/schema/index.js';
import {
  createSecretRedactor,
  LiveRedaction,
  luhnValid,
  pendingTail,
  redactChunk,
  redactionNotice,
  redactSecrets,
} from '../../src/transforms/index.js';

const redact = (text: string) => redactSecrets.redact(text);

describe('redactSecrets: the ready patterns', () => {
  it.each([
    ['api-key', 'key sk-proj-Ab3dEfGhIjKlMnOpQrStUvWx here', 'key [redacted:api-key] here'],
    ['api-key', 'sk-ant-api03-Zx9_yW8-vU7tS6rQ5pO4nM3lK2jI1h', '[redacted:api-key]'],
    ['api-key', 'AWS AKIAIOSFODNN7EXAMPLE.', 'AWS [redacted:api-key].'],
    ['api-key', 'ghp_0123456789abcdefghijABCDEFGHIJ012345', '[redacted:api-key]'],
    ['api-key', 'slack xoxb-1234567890-abcdefghij', 'slack [redacted:api-key]'],
    ['api-key', 'AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW', '[redacted:api-key]'],
    ['api-key', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc', '[redacted:api-key]'],
    [
      'bearer-token',
      'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOjF9.abc',
      'Authorization: Bearer [redacted:bearer-token]',
    ],
    ['bearer-token', 'bearer\n  0123456789abcdefXYZ==', 'bearer\n  [redacted:bearer-token]'],
    ['email', 'write to ada.lovelace+ai@example.co.uk now', 'write to [redacted:email] now'],
    ['card-number', 'card 4111 1111 1111 1111 exp', 'card [redacted:card-number] exp'],
    ['card-number', 'card 5555-5555-5555-4444', 'card [redacted:card-number]'],
    ['card-number', 'amex 378282246310005.', 'amex [redacted:card-number].'],
    ['card-number', 'id 2024 4111 1111 1111 1111', 'id 2024 [redacted:card-number]'],
  ])('finds %s in %j', (kind, text, expected) => {
    const out = redact(text);
    expect(out.text).toBe(expected);
    expect(out.counts).toEqual({ [kind]: 1 });
  });

  it.each([
    'the sk-learn-tutorial-introduction page',
    'task-abcdefghijklmnopqrstuvwxyz0123',
    'the bearer of bad news',
    'Bearer short',
    'an @mention and user@localhost',
    'order 4111 1111 1111 1112 (Luhn fails)',
    'timestamp 1712345678901 and 12345678901234567890123',
    'phone +1 415 555 2671',
    '[redacted:api-key] [redacted:email] Bearer [redacted:bearer-token] [redacted:card-number]',
  ])('leaves %j alone', (text) => {
    expect(redact(text)).toEqual({ text, counts: {} });
  });

  it('counts several secrets of several kinds, and is idempotent', () => {
    const text = 'a@b.io, c@d.io, key sk-Abcdefghijklmnopqrst0123 card 4242424242424242';
    const once = redact(text);
    expect(once.counts).toEqual({ email: 2, 'api-key': 1, 'card-number': 1 });
    expect(redact(once.text)).toEqual({ text: once.text, counts: {} });
  });

  it('Luhn', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('79927398713')).toBe(true);
  });

  it('takes a subset of kinds and patterns of its own, and refuses bad ones', () => {
    const r = createSecretRedactor({
      kinds: ['email'],
      patterns: [{ kind: 'ticket', pattern: /\bTICKET-\d{6}\b/g }],
    });
    expect(r.redact('TICKET-123456 by a@b.io, sk-Abcdefghijklmnopqrst0123')).toEqual({
      text: '[redacted:ticket] by [redacted:email], sk-Abcdefghijklmnopqrst0123',
      counts: { email: 1, ticket: 1 },
    });
    expect(() => createSecretRedactor({ kinds: ['phone' as 'email'] })).toThrow(/unknown kind/);
    expect(() => createSecretRedactor({ patterns: [{ kind: 'x', pattern: /x/ }] })).toThrow(
      /`g` flag/,
    );
  });

  // No elapsed time is asserted (the suite runs on busy machines): a pattern that backtracks
  // catastrophically on these runs makes this test time out instead.
  it('finds nothing in long runs without a secret (300 KB of letters and digits)', () => {
    const long = 'a'.repeat(200_000);
    const text = `${long} ${'1'.repeat(100_000)}`;
    const out = redact(text);
    expect(out.counts).toEqual({});
    expect(out.text).toBe(text);
  });
});

describe('pendingTail', () => {
  it.each([
    ['hello world', 6],
    ['send to Bearer ab', 8],
    ['send to Bearer ', 8],
    ['pay 4111 1111 ', 4],
    ['pay x4111 1111', 4],
    ['done. ', 0],
    ['line one\n', 9],
    ['line one\r\n', 10],
    ['auth: Bearer\n', 6],
    ['', 0],
  ])('%j is held from %i', (text, index) => {
    expect(pendingTail(text)).toBe(index);
  });
});

describe('redactChunk and redactionNotice', () => {
  it('redacts the text of a thinking chunk and keeps its signature', () => {
    const chunk = {
      type: 'thinking' as const,
      step: 0,
      text: 'use a@b.io',
      providerMetadata: { anthropic: { signature: 'sig-a@b.io' } },
    };
    const out = redactChunk(chunk, redactSecrets);
    expect(out.chunk).toEqual({ ...chunk, text: 'use [redacted:email]' });
    expect(out.counts).toEqual({ email: 1 });
  });

  it('redacts tool inputs and results deeply but not ids or names', () => {
    const chunk = {
      type: 'tool-batch' as const,
      step: 0,
      calls: [
        {
          id: 'a@b.io',
          name: 'mail',
          input: { to: ['a@b.io'], n: 1 },
          result: { ok: true, echo: 'sent to a@b.io' },
        },
      ],
    };
    expect(redactChunk(chunk, redactSecrets)).toEqual({
      chunk: {
        ...chunk,
        calls: [
          {
            id: 'a@b.io',
            name: 'mail',
            input: { to: ['[redacted:email]'], n: 1 },
            result: { ok: true, echo: 'sent to [redacted:email]' },
          },
        ],
      },
      counts: { email: 2 },
    });
  });

  it('says the counts, never the secrets', () => {
    expect(redactionNotice({ email: 2, 'api-key': 1 })).toEqual({
      type: 'system',
      kind: 'redacted',
      text: 'Redacted 3 secrets: 1 api-key, 2 email.',
      redaction: { counts: { 'api-key': 1, email: 2 } },
    });
  });
});

describe('LiveRedaction', () => {
  const flat = (events: ChunkEvent[]) => {
    const r = new LiveRedaction(redactSecrets);
    return events.flatMap((e) => r.apply(e));
  };

  it('holds a secret split across deltas until it is whole', () => {
    const out = flat([
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', text: 'my key is sk-Abcdefgh' },
      { type: 'text-delta', id: 't', text: 'ijklmnop0123456 and ' },
      { type: 'text-delta', id: 't', text: 'mail a@' },
      { type: 'text-delta', id: 't', text: 'b.io' },
      { type: 'text-end', id: 't' },
      { type: 'step-finish', finishReason: 'stop' },
    ]);
    expect(out).toEqual([
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', text: 'my key is ' },
      { type: 'text-delta', id: 't', text: '[redacted:api-key] and mail ' },
      { type: 'text-delta', id: 't', text: '[redacted:email]' },
      { type: 'text-end', id: 't' },
      {
        type: 'system',
        kind: 'redacted',
        text: 'Redacted 2 secrets: 1 api-key, 1 email.',
        redaction: { counts: { 'api-key': 1, email: 1 } },
      },
      { type: 'step-finish', finishReason: 'stop' },
    ]);
  });

  it('releases held tool input before the call and held progress before the result', () => {
    const out = flat([
      { type: 'tool-input-start', toolCallId: 'c', toolName: 'curl' },
      { type: 'tool-input-delta', toolCallId: 'c', delta: '{"h":"Bearer abcdefgh' },
      { type: 'tool-input-delta', toolCallId: 'c', delta: 'ijklmnop1234"}' },
      {
        type: 'tool-call',
        toolCallId: 'c',
        toolName: 'curl',
        input: { h: 'Bearer abcdefghijklmnop1234' },
      },
      { type: 'tool-progress', toolCallId: 'c', text: 'to 4111 1111 ' },
      { type: 'tool-progress', toolCallId: 'c', text: '1111 1111\n' },
      { type: 'tool-result', toolCallId: 'c', output: 'ok' },
      { type: 'turn-end' },
    ]);
    const text = JSON.stringify(out);
    expect(text).not.toMatch(/abcdefgh|4111/);
    expect(out.map((e) => e.type)).toEqual([
      'tool-input-start',
      'tool-input-delta',
      'tool-call',
      'tool-progress', // 'to '
      'tool-progress', // the card, released by the result
      'tool-result',
      'system',
      'turn-end',
    ]);
  });
});
