import { describe, expect, it } from 'vitest';
import { toModelMessages } from '../../src/model-messages/index.js';
import type { ChatMessage } from '../../src/schema/index.js';
import { parseChunkRowDraft } from '../../src/schema/index.js';
import { explodeTurn, groupRowsToMessages } from '../../src/transforms/index.js';

const thread: ChatMessage[] = [
  {
    id: 't:user',
    turnId: 't',
    role: 'user',
    chunks: [
      { type: 'data', step: 0, name: 'attachment-card', data: { title: 'Q3.pdf' } },
      { type: 'text', step: 0, text: 'Summarise it.' },
    ],
  },
  {
    id: 't:assistant',
    turnId: 't',
    role: 'assistant',
    chunks: [
      { type: 'text', step: 0, text: 'Here goes.' },
      { type: 'data', step: 0, name: 'weather', id: 'w1', data: { celsius: 4 } },
    ],
  },
];

describe('the data chunk', () => {
  it('is one row with the role of its message, and groups back in place', () => {
    const rows = thread.flatMap((m) => explodeTurn(m.turnId, m.chunks, { role: m.role }));
    expect(rows.filter((r) => r.type === 'data').map((r) => [r.role, r.data])).toStrictEqual([
      ['user', { name: 'attachment-card', data: { title: 'Q3.pdf' } }],
      ['assistant', { name: 'weather', id: 'w1', data: { celsius: 4 } }],
    ]);
    for (const row of rows) expect(parseChunkRowDraft(row)).toStrictEqual(row);
    expect(groupRowsToMessages(rows)).toStrictEqual(thread);
  });

  it('never reaches the model', () => {
    expect(JSON.stringify(toModelMessages(thread))).not.toMatch(/Q3|celsius/);
  });
});
