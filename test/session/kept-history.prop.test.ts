import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunklogError } from '../../src/errors/index.js';
import type { ChunkRow, ChunkRowDraft } from '../../src/schema/chunk-row.js';
import { KeptHistory } from '../../src/session/kept-history.js';
import { modelInputOf } from '../../src/session/model-input.js';
import { modelMessagesOf } from '../../src/session/pipeline.js';
import type { SessionStore } from '../../src/session/store.js';
import { groupRows } from '../../src/transforms/group-rows.js';
import { MessageFold } from '../../src/transforms/message-fold.js';

/** A thread's rows in memory, with the reads a kept history uses, counting what they return. */
class MemoryStore {
  rows: ChunkRow[] = [];
  /** The next row's seq: seqs are not reused after an expiry, as in the store. */
  next = 1;
  exists = true;
  rowsRead = 0;
  async getHistory(threadId: string) {
    if (!this.exists) throw new ChunklogError('thread-not-found', `no ${threadId}`);
    this.rowsRead += this.rows.length;
    const fold = new MessageFold();
    for (const row of this.rows) fold.add(structuredClone(row));
    return { fold, messages: fold.messages() };
  }
  async getChunksAfter(
    threadId: string,
    options: { readonly afterSeq: number; readonly limit: number },
  ) {
    if (!this.exists) throw new ChunklogError('thread-not-found', `no ${threadId}`);
    const chunks = this.rows
      .filter((r) => r.seq > options.afterSeq)
      .slice(0, options.limit)
      .map((r) => structuredClone(r));
    this.rowsRead += chunks.length;
    const newestSeq = chunks.at(-1)?.seq ?? null;
    const total = this.next - 1;
    const first = this.rows[0];
    const start =
      chunks.length > 0 && first !== undefined
        ? { threadStart: { seq: first.seq, turnId: first.turnId, createdAt: first.createdAt } }
        : {};
    return { chunks, total, newestSeq, hasMore: newestSeq !== null && newestSeq < total, ...start };
  }
  /** Appends drafts (of any turn, even an older one) with the next seqs. */
  add(drafts: readonly ChunkRowDraft[], at: number): void {
    for (const d of drafts) {
      this.rows.push({
        ...d,
        threadId: 'x',
        seq: this.next++,
        createdAt: new Date(at).toISOString(),
      } as ChunkRow);
    }
  }
  /** Keeps the first `keep` rows (`truncateAfter`): the next seq follows the last one kept. */
  truncate(keep: number): void {
    this.rows = this.rows.slice(0, keep);
    this.next = (this.rows.at(-1)?.seq ?? 0) + 1;
  }
  /**
   * Removes the first `count` rows as retention does: the last of them becomes the sentinel of a
   * new turn, with a new time; the rows after it keep their seqs (and the last row stays).
   */
  expire(count: number, at: number): void {
    const last = this.rows[count - 1];
    if (last === undefined || count >= this.rows.length) return;
    const sentinel = {
      threadId: 'x',
      seq: last.seq,
      turnId: `expired-${last.seq}`,
      step: 0,
      role: 'system',
      type: 'system',
      data: { kind: 'notice', text: `${count} rows removed` },
      createdAt: new Date(at).toISOString(),
    } as ChunkRow;
    this.rows = [sentinel, ...this.rows.slice(count)];
  }
}

const text = (turnId: string, role: 'user' | 'assistant', t: string, step = 0): ChunkRowDraft => ({
  turnId,
  step,
  role,
  type: 'text',
  data: { text: t },
});

/** The rows of one kind of turn (or part of a turn). */
const KINDS: Record<string, (turnId: string, older: string | undefined) => ChunkRowDraft[]> = {
  chat: (id) => [text(id, 'user', `q ${id}`), text(id, 'assistant', `a ${id}`)],
  tools: (id) => [
    text(id, 'user', `run ${id}`),
    {
      turnId: id,
      step: 0,
      role: 'assistant',
      type: 'thinking',
      data: { text: 'hmm', providerMetadata: { anthropic: { signature: `s-${id}` } } },
    },
    {
      turnId: id,
      step: 0,
      role: 'assistant',
      type: 'tool_call',
      data: { id: `c-${id}`, name: 'run', input: { cmd: id }, index: 0 },
    },
    {
      turnId: id,
      step: 0,
      role: 'tool',
      type: 'tool_result',
      data: { callId: `c-${id}`, name: 'run', result: `out ${id}` },
    },
    text(id, 'assistant', 'done', 1),
  ],
  // A call left waiting: its result comes in a later turn (an orphan there).
  waiting: (id) => [
    text(id, 'user', `ask ${id}`),
    {
      turnId: id,
      step: 0,
      role: 'assistant',
      type: 'tool_call',
      data: { id: `w-${id}`, name: 'ask', input: {}, index: 0 },
    },
  ],
  lateResult: (id, older) => [
    text(id, 'user', 'go on'),
    {
      turnId: id,
      step: 0,
      role: 'tool',
      type: 'tool_result',
      data: { callId: `w-${older ?? id}`, name: 'ask', result: 'yes' },
    },
  ],
  notice: (id) => [
    { turnId: id, step: 0, role: 'system', type: 'system', data: { kind: 'notice', text: id } },
  ],
  modelChanged: (id) => [
    text(id, 'user', `q ${id}`),
    {
      turnId: id,
      step: 0,
      role: 'assistant',
      type: 'system',
      data: { kind: 'model-changed', text: 'to b' },
    },
    text(id, 'assistant', 'b'),
  ],
  // More rows of the newest turn, as a store writing steps as they end would add them.
  moreOfLast: (id) => [text(id, 'assistant', `more ${id}`, 2)],
};

type Op =
  | { readonly op: 'turn'; readonly kind: string }
  | { readonly op: 'truncate'; readonly keep: number }
  | { readonly op: 'expire'; readonly count: number }
  | { readonly op: 'recreate' }
  | { readonly op: 'olderTurn' }
  | { readonly op: 'read' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .constantFrom(...Object.keys(KINDS))
      .map((kind) => ({ op: 'turn' as const, kind })),
  },
  { weight: 1, arbitrary: fc.nat({ max: 30 }).map((keep) => ({ op: 'truncate' as const, keep })) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 30 }).map((count) => ({ op: 'expire' as const, count })),
  },
  { weight: 1, arbitrary: fc.constant({ op: 'recreate' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'olderTurn' as const }) },
  { weight: 4, arbitrary: fc.constant({ op: 'read' as const }) },
);

/** The kept history of the memory store's thread (it uses only the two reads above). */
const keptOf = (store: MemoryStore) =>
  new KeptHistory(store as unknown as SessionStore, 'x', undefined);

describe('KeptHistory', () => {
  it('kept history and its model input always equal grouping the stored rows afresh, whatever is appended, truncated, expired or recreated', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 40 }), async (ops) => {
        const store = new MemoryStore();
        const history = keptOf(store);
        let turns = 0;
        let clock = Date.UTC(2026, 0, 1);
        const turnIds: string[] = [];
        for (const step of [...ops, { op: 'read' } as Op]) {
          clock += 1000;
          if (step.op === 'turn') {
            const last = turnIds.at(-1);
            const id = step.kind === 'moreOfLast' && last !== undefined ? last : `t${++turns}`;
            if (id !== last) turnIds.push(id);
            const waiting = [...turnIds].reverse().find((t) => t !== id);
            store.add((KINDS[step.kind] as (typeof KINDS)['chat'])(id, waiting), clock);
          } else if (step.op === 'truncate') {
            store.truncate(step.keep);
          } else if (step.op === 'expire') {
            store.expire(step.count, clock);
          } else if (step.op === 'recreate') {
            store.rows = [];
            store.next = 1;
            turnIds.length = 0;
          } else if (step.op === 'olderTurn') {
            const first = turnIds[0];
            if (first !== undefined) store.add([text(first, 'assistant', 'late')], clock);
          } else {
            const messages = await history.messages();
            const fresh = groupRows(store.rows);
            expect(JSON.stringify(messages)).toBe(JSON.stringify(fresh));
            expect(JSON.stringify(modelInputOf(messages))).toBe(
              JSON.stringify(modelMessagesOf(fresh)),
            );
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('reads only the rows after the last one it read while the store only grows', async () => {
    const store = new MemoryStore();
    const history = keptOf(store);
    for (let t = 1; t <= 20; t++)
      store.add((KINDS.tools as (typeof KINDS)['chat'])(`t${t}`, undefined), t);
    await history.messages();
    // The thread's first row (for where it starts), then the thread whole.
    expect(store.rowsRead).toBe(101);
    store.rowsRead = 0;
    store.add((KINDS.chat as (typeof KINDS)['chat'])('t21', undefined), 21);
    const messages = await history.messages();
    // The last row read (to check it is unchanged) and the two new ones.
    expect(store.rowsRead).toBe(3);
    expect(messages).toEqual(groupRows(store.rows));
    store.rowsRead = 0;
    expect(await history.messages()).toBe(messages);
    expect(store.rowsRead).toBe(1);
  });

  it('reads every page of what came since, when more than one page of rows came', async () => {
    const store = new MemoryStore();
    const history = keptOf(store);
    store.add((KINDS.chat as (typeof KINDS)['chat'])('t0', undefined), 0);
    await history.messages();
    // 1,250 rows, more than the store's largest page (1,000).
    for (let t = 1; t <= 250; t++)
      store.add((KINDS.tools as (typeof KINDS)['chat'])(`t${t}`, undefined), t);
    store.rowsRead = 0;
    expect(await history.messages()).toEqual(groupRows(store.rows));
    // The last row read (to check it is unchanged) and the new ones, no whole read.
    expect(store.rowsRead).toBe(1 + 1250);
  });

  it('applies new rows once when reads overlap', async () => {
    const store = new MemoryStore();
    const history = keptOf(store);
    store.add((KINDS.chat as (typeof KINDS)['chat'])('t1', undefined), 1);
    await history.messages();
    store.add((KINDS.tools as (typeof KINDS)['chat'])('t2', undefined), 2);
    const [a, b] = await Promise.all([history.messages(), history.messages()]);
    expect(a).toEqual(groupRows(store.rows));
    expect(b).toBe(a);
  });

  it('reads the thread again after a truncate, and finds a deleted thread empty', async () => {
    const store = new MemoryStore();
    const history = keptOf(store);
    for (let t = 1; t <= 5; t++)
      store.add((KINDS.chat as (typeof KINDS)['chat'])(`t${t}`, undefined), t);
    await history.messages();
    store.truncate(6);
    store.add((KINDS.chat as (typeof KINDS)['chat'])('t9', undefined), 9);
    store.add((KINDS.chat as (typeof KINDS)['chat'])('t10', undefined), 10);
    store.rowsRead = 0;
    expect(await history.messages()).toEqual(groupRows(store.rows));
    // The check read, then the thread's first row and the whole thread.
    expect(store.rowsRead).toBe(store.rows.length + 2);
    store.exists = false;
    expect(await history.messages()).toEqual([]);
  });
});
