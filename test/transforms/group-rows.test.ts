import { describe, expect, it } from 'vitest';
import type { Chunk, ChunkRow } from '../../src/schema/index.js';
import { explodeTurn, groupRowsToMessages, mergeRowsBySeq } from '../../src/transforms/index.js';

const user: Chunk[] = [{ type: 'text', step: 0, text: 'explain X' }];
const assistant: Chunk[] = [
  { type: 'thinking', step: 0, text: 'I should...' },
  { type: 'text', step: 0, text: 'Sure' },
  { type: 'system', step: 0, kind: 'model-changed', text: 'Switched to Sonnet' },
  {
    type: 'tool-batch',
    step: 0,
    calls: [
      { id: '1', name: 'read_file', input: { p: 'a' }, result: '...' },
      { id: '2', name: 'list_files', input: {}, result: ['a'] },
    ],
  },
  { type: 'steering', step: 1, id: 'st', text: 'use b' },
  { type: 'text', step: 1, text: 'Looking at the file...' },
  { type: 'error', step: 1, message: 'Network error', statusCode: 503 },
];

function stored(
  threadId: string,
  turns: Array<[string, Chunk[], 'user' | 'assistant' | 'system']>,
): ChunkRow[] {
  const rows: ChunkRow[] = [];
  for (const [turnId, chunks, role] of turns) {
    for (const draft of explodeTurn(turnId, chunks, { role })) {
      rows.push({ ...draft, threadId, seq: rows.length + 1 } as ChunkRow);
    }
  }
  return rows;
}

const log = stored('th', [
  ['t1', user, 'user'],
  ['t1', assistant, 'assistant'],
  ['s1', [{ type: 'system', step: 0, kind: 'notice', text: 'a' }], 'system'],
  ['s2', [{ type: 'system', step: 0, kind: 'config-reload', text: 'b' }], 'system'],
  ['t2', [{ type: 'text', step: 0, text: 'next' }], 'user'],
]);

describe('groupRowsToMessages', () => {
  it('rebuilds one message per turn and role with stable ids, coalescing system turns', () => {
    const messages = groupRowsToMessages(log);
    expect(messages.map((m) => m.id)).toEqual(['t1:user', 't1:assistant', 's1:system', 't2:user']);
    expect(messages[0]?.chunks).toStrictEqual(user);
    expect(messages[1]?.chunks).toStrictEqual(assistant);
    expect(messages[2]).toStrictEqual({
      id: 's1:system',
      turnId: 's1',
      role: 'system',
      chunks: [
        { type: 'system', step: 0, kind: 'notice', text: 'a' },
        { type: 'system', step: 0, kind: 'config-reload', text: 'b' },
      ],
    });
  });

  it('gives the same ids for live entries (no seq) as for stored rows', () => {
    const live = explodeTurn('t1', assistant, { role: 'assistant' }).map((d, i) => ({
      ...d,
      id: `t1:${i}`,
      seq: null,
      live: true,
    }));
    const fromLive = groupRowsToMessages(live);
    const fromStore = groupRowsToMessages(
      log.filter((r) => (r.turnId === 't1' && r.role !== 'user') || r.type === 'steering'),
    );
    expect(fromLive).toStrictEqual(fromStore);
    expect(fromLive.map((m) => m.id)).toEqual(['t1:assistant']);
  });

  it('turns a page that starts with results into orphan placeholders, replaced once merged', () => {
    const firstResult = log.findIndex((r) => r.type === 'tool_result');
    const newer = log.slice(firstResult);
    const older = log.slice(0, firstResult);
    const page = groupRowsToMessages(newer);
    expect(page[0]?.id).toBe('t1:assistant');
    expect(page[0]?.chunks[0]).toStrictEqual({
      type: 'tool-batch',
      step: 0,
      calls: [
        { id: '1', name: 'read_file', orphan: true, result: '...' },
        { id: '2', name: 'list_files', orphan: true, result: ['a'] },
      ],
    });
    expect(groupRowsToMessages(mergeRowsBySeq(newer, older))).toStrictEqual(
      groupRowsToMessages(log),
    );
  });

  it('keeps a batch whose page starts mid-batch, and joins a result to its call on the page', () => {
    const secondCall = log.findIndex((r) => r.type === 'tool_call' && r.data.index === 1);
    const messages = groupRowsToMessages(log.slice(secondCall));
    expect(messages[0]?.chunks[0]).toStrictEqual({
      type: 'tool-batch',
      step: 0,
      calls: [
        { id: '2', name: 'list_files', input: {}, result: ['a'] },
        { id: '1', name: 'read_file', orphan: true, result: '...' },
      ],
    });
  });

  it('drops rows whose seq was already seen, keeping the first', () => {
    const doubled = [...log.slice(0, 6), ...log.slice(3)];
    expect(groupRowsToMessages(doubled)).toStrictEqual(groupRowsToMessages(log));
  });

  it('keeps every row of pages given out of order, and drops a repeat that comes after them', () => {
    const outOfOrder = [...log.slice(3), ...log.slice(0, 3)];
    const grouped = groupRowsToMessages(outOfOrder);
    expect(grouped.flatMap((m) => m.chunks).length).toBeGreaterThan(0);
    expect(
      groupRowsToMessages([...outOfOrder, ...log.slice(0, 3), log[4] as ChunkRow]),
    ).toStrictEqual(grouped);
    // Nothing of the rows below the first page's seqs is dropped as a repeat.
    expect(grouped).not.toStrictEqual(groupRowsToMessages(log.slice(3)));
  });

  it('puts a steering row into the assistant message in place, even alone on a page', () => {
    const steering = log.find((r) => r.type === 'steering') as ChunkRow;
    expect(groupRowsToMessages([steering])).toStrictEqual([
      {
        id: 't1:assistant',
        turnId: 't1',
        role: 'assistant',
        chunks: [{ type: 'steering', step: 1, id: 'st', text: 'use b' }],
      },
    ]);
  });

  it('keeps two adjacent batches apart by index', () => {
    const chunks: Chunk[] = [
      { type: 'tool-batch', step: 0, calls: [{ id: 'a', name: 'x', input: 1 }] },
      {
        type: 'tool-batch',
        step: 0,
        calls: [
          { id: 'b', name: 'x', input: 2 },
          { id: 'c', name: 'x', input: 3 },
        ],
      },
    ];
    const [message] = groupRowsToMessages(explodeTurn('t', chunks, { role: 'assistant' }));
    expect(message?.chunks).toStrictEqual(chunks);
  });

  it('does not throw on rows in a scrambled order and loses none of them', () => {
    const scrambled = [...log].reverse();
    const messages = groupRowsToMessages(scrambled);
    const all = JSON.stringify(messages);
    for (const text of [
      'explain X',
      'Sure',
      'Switched to Sonnet',
      'use b',
      'next',
      '...',
      'Network error',
    ]) {
      expect(all).toContain(text);
    }
  });

  it('gives nothing for no rows', () => {
    expect(groupRowsToMessages([])).toEqual([]);
  });
});

describe('mergeRowsBySeq', () => {
  it('dedupes by seq and sorts ascending, whatever the page order', () => {
    const a = log.slice(0, 5);
    const b = log.slice(3, 9);
    const c = log.slice(8);
    expect(mergeRowsBySeq(c, a, b)).toStrictEqual(log);
    expect(mergeRowsBySeq(a, b, c)).toStrictEqual(log);
    expect(mergeRowsBySeq()).toEqual([]);
  });

  it('keeps the first copy of a seq', () => {
    const first = log[0] as ChunkRow;
    const copy = { ...first, createdAt: 'later' } as ChunkRow;
    expect(mergeRowsBySeq([first], [copy])[0]).toBe(first);
  });
});
