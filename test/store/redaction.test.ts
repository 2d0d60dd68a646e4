// The store's `redact` option (notes/0085): every row a write stores is redacted, a `redacted`
// system row with the counts follows a write that replaced anything, rows already clean (a
// redacting session's) gain nothing, and the option is checked like every other.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChunkRowDraft } from '../../src/schema/index.js';
import { createChunkStore } from '../../src/store/index.js';
import { redactSecrets } from '../../src/transforms/index.js';

const dir = mkdtempSync(join(tmpdir(), 'chunklog-redact-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function open() {
  const store = createChunkStore(
    { sqlite: join(dir, `${Math.random()}.db`) },
    { redact: redactSecrets },
  );
  await store.migrate();
  return store;
}

const drafts: ChunkRowDraft[] = [
  { turnId: 't1', step: 0, role: 'user', type: 'text', data: { text: 'I am ada@example.com' } },
  {
    turnId: 't1',
    step: 0,
    role: 'assistant',
    type: 'thinking',
    data: {
      text: 'key sk-Abcdefghijklmnopqrst0123',
      providerMetadata: { anthropic: { signature: 'sig' } },
    },
  },
  {
    turnId: 't1',
    step: 0,
    role: 'assistant',
    type: 'tool_call',
    data: { id: 'c1', name: 'pay', index: 0, input: { card: '4111 1111 1111 1111' } },
  },
  {
    turnId: 't1',
    step: 0,
    role: 'tool',
    type: 'tool_result',
    data: { callId: 'c1', name: 'pay', result: 'charged 4111 1111 1111 1111' },
  },
];

describe('createChunkStore({ redact })', () => {
  it('redacts appendTurn rows and records the counts in a system row after them', async () => {
    const store = await open();
    const rows = await store.appendTurn('th', drafts);
    expect(rows.map((r) => [r.role, r.type])).toEqual([
      ['user', 'text'],
      ['assistant', 'thinking'],
      ['assistant', 'tool_call'],
      ['tool', 'tool_result'],
      ['assistant', 'system'],
    ]);
    const stored = await store.getRows('th');
    expect(stored.map((r) => r.data)).toEqual([
      { text: 'I am [redacted:email]' },
      { text: 'key [redacted:api-key]', providerMetadata: { anthropic: { signature: 'sig' } } },
      { id: 'c1', name: 'pay', index: 0, input: { card: '[redacted:card-number]' } },
      { callId: 'c1', name: 'pay', result: 'charged [redacted:card-number]' },
      {
        kind: 'redacted',
        text: 'Redacted 4 secrets: 1 api-key, 2 card-number, 1 email.',
        redaction: { counts: { 'api-key': 1, 'card-number': 2, email: 1 } },
      },
    ]);
    // The notice groups into the assistant's message, and never reaches the model.
    const messages = await store.getMessages('th');
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    await store.close();
  });

  it('redacts beginTurn and appendSteps too, and adds nothing to clean rows', async () => {
    const store = await open();
    const [user, ...rest] = drafts;
    const begun = await store.beginTurn('th', [user as ChunkRowDraft]);
    expect(begun.rows.map((r) => r.type)).toEqual(['text', 'system']);
    expect(begun.rows[1]?.role).toBe('user');
    const steps = await store.appendSteps('th', 't1', rest, { status: 'completed' });
    expect(steps.at(-1)?.data).toMatchObject({
      redaction: { counts: { 'api-key': 1, 'card-number': 2 } },
    });
    const clean = await store.appendTurn('th', [
      {
        turnId: 't2',
        step: 0,
        role: 'user',
        type: 'text',
        data: { text: 'nothing [redacted:email]' },
      },
    ]);
    expect(clean).toHaveLength(1);
    await store.close();
  });

  it('refuses a redact option that is not a Redactor', () => {
    expect(() => createChunkStore({ sqlite: ':memory:' }, { redact: (() => '') as never })).toThrow(
      expect.objectContaining({ code: 'invalid-option', option: 'redact' }),
    );
  });
});
