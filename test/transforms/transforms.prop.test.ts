import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, Chunk, ChunkRow, ChunkRowDraft } from '../../src/schema/index.js';
import { ChunkRowDraftSchema } from '../../src/schema/index.js';
import { explodeTurn, groupRowsToMessages, mergeRowsBySeq } from '../../src/transforms/index.js';
import { assistantChunksArb, type TurnSpec, threadArb, userChunksArb } from './arbitraries.js';

function storeThread(turns: readonly TurnSpec[]): ChunkRow[] {
  const rows: ChunkRow[] = [];
  const add = (drafts: ChunkRowDraft[]) => {
    for (const d of drafts) rows.push({ ...d, threadId: 'th', seq: rows.length + 1 } as ChunkRow);
  };
  for (const turn of turns) {
    if (turn.kind === 'system') add(explodeTurn(turn.turnId, turn.chunks, { role: 'system' }));
    else {
      add(explodeTurn(turn.turnId, turn.user, { role: 'user' }));
      add(explodeTurn(turn.turnId, turn.assistant, { role: 'assistant' }));
    }
  }
  return rows;
}

/** Pages as keyset pagination makes them (contiguous seq ranges), possibly overlapping. */
const pagesArb = (rows: readonly ChunkRow[]) =>
  fc
    .array(fc.tuple(fc.nat(rows.length), fc.nat(rows.length)), { minLength: 1, maxLength: 6 })
    .map((ranges) => {
      const pages = ranges.map(([a, b]) => rows.slice(Math.min(a, b), Math.max(a, b)));
      // Make sure every row is on some page (the rest of the log is loaded too).
      let covered = 0;
      for (const cut of [...ranges.flat(), rows.length].sort((x, y) => x - y)) {
        pages.push(rows.slice(covered, cut));
        covered = cut;
      }
      return pages;
    });

/** Whether a row's content appears in the messages (nothing lost). */
function represented(messages: readonly ChatMessage[], row: ChunkRow): boolean {
  const chunks = messages.flatMap((m) => m.chunks);
  if (row.type === 'tool_call') {
    const { index: _index, ...call } = row.data;
    return chunks.some(
      (c) =>
        c.type === 'tool-batch' &&
        c.calls.some((e) =>
          Object.entries(call).every(([k, v]) => isDeepStrictEqual(e[k as keyof typeof e], v)),
        ),
    );
  }
  if (row.type === 'tool_result') {
    const { callId, name, ...result } = row.data;
    return chunks.some(
      (c) =>
        c.type === 'tool-batch' &&
        c.calls.some(
          (e) =>
            e.id === callId &&
            e.name === name &&
            Object.entries(result).every(([k, v]) => isDeepStrictEqual(e[k as keyof typeof e], v)),
        ),
    );
  }
  const chunk = { type: row.type, step: row.step, ...row.data };
  return chunks.some((c) => isDeepStrictEqual(c, chunk));
}

describe('explode / group (property)', () => {
  it('group(explode(chunks)) gives the assistant turn back, whatever the chunks', () => {
    fc.assert(
      fc.property(assistantChunksArb('c', 14), (chunks) => {
        const rows = explodeTurn('t', chunks, { role: 'assistant' });
        for (const row of rows) expect(ChunkRowDraftSchema.safeParse(row).success).toBe(true);
        const messages = groupRowsToMessages(rows);
        const expected: Chunk[] = chunks.filter(
          (c) => c.type !== 'tool-batch' || c.calls.length > 0,
        );
        if (expected.length === 0) expect(messages).toEqual([]);
        else
          expect(messages).toStrictEqual([
            { id: 't:assistant', turnId: 't', role: 'assistant', chunks: expected },
          ]);
      }),
      { numRuns: 400 },
    );
  });

  it('a user message and its answer come back as two messages of one turn', () => {
    fc.assert(
      fc.property(userChunksArb, assistantChunksArb('c', 8), (user, assistant) => {
        const rows = [
          ...explodeTurn('t', user, { role: 'user' }),
          ...explodeTurn('t', assistant, { role: 'assistant' }),
        ];
        const messages = groupRowsToMessages(rows);
        expect(messages[0]).toStrictEqual({
          id: 't:user',
          turnId: 't',
          role: 'user',
          chunks: user,
        });
        expect(messages.slice(1).flatMap((m) => m.chunks)).toStrictEqual(assistant);
      }),
    );
  });

  it('any split into pages, loaded in any order with overlaps and merged by seq, groups like the whole log', () => {
    fc.assert(
      fc.property(
        threadArb(6).chain((turns) => {
          const rows = storeThread(turns);
          return fc.tuple(
            fc.constant(rows),
            pagesArb(rows).chain((pages) =>
              fc.shuffledSubarray(pages, { minLength: pages.length }),
            ),
          );
        }),
        ([rows, pages]) => {
          const whole = groupRowsToMessages(rows);
          let loaded: ChunkRow[] = [];
          for (const page of pages) {
            loaded = mergeRowsBySeq(loaded, page);
            // Each partial state groups without error and loses nothing that is loaded.
            const partial = groupRowsToMessages(loaded);
            for (const row of loaded) expect(represented(partial, row)).toBe(true);
            // Raw concatenation with duplicates (no merge) does not throw or lose anything either.
            const raw = groupRowsToMessages(pages.flat());
            for (const row of page) expect(represented(raw, row)).toBe(true);
          }
          expect(groupRowsToMessages(loaded)).toStrictEqual(whole);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never throws on schema-valid rows in any order, with any roles, seqs and duplicates, and loses nothing', () => {
    const roles = ['user', 'assistant', 'tool', 'system'] as const;
    fc.assert(
      fc.property(
        threadArb(4).chain((turns) => {
          const rows = storeThread(turns);
          return fc.tuple(
            fc.shuffledSubarray(rows, { minLength: 0, maxLength: rows.length }),
            fc.array(
              fc.tuple(
                fc.constantFrom(...roles),
                fc.option(fc.nat(rows.length + 2), { nil: null }),
              ),
              {
                minLength: rows.length,
                maxLength: rows.length,
              },
            ),
          );
        }),
        ([rows, mutations]) => {
          const mutated = rows.map((row, i) => {
            const [role, seq] = mutations[i] as [ChunkRow['role'], number | null];
            return { ...row, role, seq };
          });
          expect(
            ChunkRowDraftSchema.safeParse(
              mutated[0] ?? {
                turnId: 't',
                step: 0,
                role: 'user',
                type: 'text',
                data: { text: '' },
              },
            ).success,
          ).toBe(true);
          const messages = groupRowsToMessages(mutated);
          const seen = new Set<number>();
          for (const row of mutated) {
            if (row.seq !== null) {
              if (seen.has(row.seq)) continue;
              seen.add(row.seq);
            }
            expect(represented(messages, row as ChunkRow)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
