// Model-based: random sequences of append (with repeated turn ids), pages both ways, turn
// lookups, truncate, fork and delete give the same answers from the store as from a deliberately
// simple in-memory model. Forks are by reference in the store (notes/0088) and copies in the
// model: a fork reads exactly its parent's rows up to the fork seq, then its own, through forks of
// forks; deleting a thread, or truncating it below a fork's seq, is refused while the fork is there.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ChunklogError } from '../../src/errors/index.js';
import type { ChunkRow, ChunkRowDraft } from '../../src/schema/chunk-row.js';
import type {
  ChunkPage,
  ChunkStore,
  ForwardChunkPage,
  HistoryRead,
} from '../../src/store/index.js';
import { groupRowsToMessages } from '../../src/transforms/group-rows.js';
import { availableDialects, createHarness, type DialectHarness } from './support/dialects.js';

type ModelRow = Omit<ChunkRow, 'createdAt'>;
/**
 * The model: each thread's rows in seq order (a fork's path rows, copied when it was made, under
 * its own id). Seqs are dense, so the next seq is length + 1. `forks` holds each fork's parent and
 * fork seq.
 */
type Model = Map<string, ModelRow[]> & {
  forks?: Map<string, { parent: string; atSeq: number }>;
};

const forksOf = (model: Model) => {
  model.forks ??= new Map();
  return model.forks;
};

/**
 * The thread whose own rows hold `seq` of `threadId`'s path: a fork's parent (the source itself
 * at seq 0, where a fork reads nothing).
 */
const ownerAt = (model: Model, threadId: string, seq: number): string => {
  const fork = forksOf(model).get(threadId);
  return fork !== undefined && seq > 0 && seq <= fork.atSeq
    ? ownerAt(model, fork.parent, seq)
    : threadId;
};

/** Whether a fork reads `threadId`'s rows above `seq`. */
const heldAbove = (model: Model, threadId: string, seq: number) =>
  [...forksOf(model).values()].some((f) => f.parent === threadId && f.atSeq > seq);
interface Real {
  readonly store: ChunkStore;
  readonly ids: readonly string[];
}

const THREADS = 4;
const strip = (rows: readonly ChunkRow[]): ModelRow[] =>
  rows.map(({ createdAt: _, ...rest }) => rest as ModelRow);

async function outcome<T>(work: Promise<T>): Promise<T | { error: string }> {
  try {
    return await work;
  } catch (error) {
    if (ChunklogError.isInstance(error)) return { error: error.code };
    throw error;
  }
}

class AppendCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly thread: number,
    readonly turn: number,
    readonly texts: readonly string[],
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const threadId = real.ids[this.thread] as string;
    const turnId = `turn-${this.turn}`;
    const drafts: ChunkRowDraft[] = this.texts.map((text, i) => ({
      turnId,
      step: i >> 1,
      role: i === 0 ? 'user' : 'assistant',
      type: 'text',
      data: { text },
    }));
    const got = strip(await real.store.appendTurn(threadId, drafts));
    const rows = model.get(threadId) ?? [];
    model.set(threadId, rows);
    // An empty turn names no turn id: it only creates the thread.
    const stored = drafts.length === 0 ? [] : rows.filter((r) => r.turnId === turnId);
    if (stored.length > 0 || drafts.length === 0) {
      expect(got).toStrictEqual(stored);
      return;
    }
    const added = drafts.map((d, i) => ({ threadId, seq: rows.length + i + 1, ...d }) as ModelRow);
    rows.push(...added);
    expect(got).toStrictEqual(added);
  }
  toString = () => `append(t${this.thread}, turn-${this.turn}, ${JSON.stringify(this.texts)})`;
}

class PageCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly thread: number,
    readonly limit: number,
    readonly before: number | undefined,
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const threadId = real.ids[this.thread] as string;
    const got = await outcome(
      real.store.getChunks(threadId, { limit: this.limit, before: this.before }),
    );
    const rows = model.get(threadId);
    if (rows === undefined) {
      expect(got).toStrictEqual({ error: 'thread-not-found' });
      return;
    }
    const below = rows.filter((r) => this.before === undefined || r.seq < this.before);
    const chunks = below.slice(Math.max(0, below.length - this.limit));
    const page = got as ChunkPage;
    expect({ ...page, chunks: strip(page.chunks) }).toStrictEqual({
      chunks,
      total: rows.length,
      oldestSeq: chunks[0]?.seq ?? null,
      hasMore: chunks.length > 0 && below.length > chunks.length,
    });
  }
  toString = () => `page(t${this.thread}, ${this.limit}, ${this.before})`;
}

class PageAfterCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly thread: number,
    readonly limit: number,
    readonly afterSeq: number | undefined,
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const threadId = real.ids[this.thread] as string;
    const got = await outcome(
      real.store.getChunksAfter(threadId, { limit: this.limit, afterSeq: this.afterSeq }),
    );
    const rows = model.get(threadId);
    if (rows === undefined) {
      expect(got).toStrictEqual({ error: 'thread-not-found' });
      return;
    }
    const above = rows.filter((r) => r.seq > (this.afterSeq ?? 0));
    const chunks = above.slice(0, this.limit);
    const page = got as ForwardChunkPage;
    // The thread's own rows: a fork's start after its fork seq. Its start is told when one of
    // them lies after `afterSeq`.
    const ownFrom = (forksOf(model).get(threadId)?.atSeq ?? 0) + 1;
    const first = rows.find((r) => r.seq === ownFrom);
    const start =
      first !== undefined && rows.some((r) => r.seq >= ownFrom && r.seq > (this.afterSeq ?? 0))
        ? { threadStart: { seq: first.seq, turnId: first.turnId } }
        : {};
    const { threadStart, ...rest } = page;
    // The model keeps no times: a start's time is the one its row reads with.
    const told =
      threadStart === undefined
        ? {}
        : (({ createdAt: _, ...mark }) => ({ threadStart: mark }))(threadStart);
    expect({ ...rest, ...told, chunks: strip(page.chunks) }).toStrictEqual({
      chunks,
      total: rows.length,
      newestSeq: chunks.at(-1)?.seq ?? null,
      hasMore: above.length > chunks.length,
      ...start,
    });
  }
  toString = () => `pageAfter(t${this.thread}, ${this.limit}, ${this.afterSeq})`;
}

class TurnCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly thread: number,
    readonly turn: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const threadId = real.ids[this.thread] as string;
    const turnId = `turn-${this.turn}`;
    const got = await outcome(real.store.getTurn(threadId, turnId));
    const has = await real.store.hasTurn(threadId, turnId);
    const rows = model.get(threadId);
    if (rows === undefined) {
      expect(got).toStrictEqual({ error: 'thread-not-found' });
      expect(has).toBe(false);
      return;
    }
    const turn = rows.filter((r) => r.turnId === turnId);
    expect(got === null ? null : strip(got as ChunkRow[])).toStrictEqual(
      turn.length === 0 ? null : turn,
    );
    expect(has).toBe(turn.length > 0);
  }
  toString = () => `getTurn(t${this.thread}, turn-${this.turn})`;
}

class TruncateCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly thread: number,
    readonly seq: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const threadId = real.ids[this.thread] as string;
    const got = await outcome(real.store.truncateAfter(threadId, this.seq));
    const rows = model.get(threadId);
    if (rows === undefined) {
      expect(got).toStrictEqual({ error: 'thread-not-found' });
      return;
    }
    const kept = rows.filter((r) => r.seq <= this.seq);
    if (kept.length < rows.length && heldAbove(model, threadId, this.seq)) {
      expect(got).toStrictEqual({ error: 'thread-has-forks' });
      return;
    }
    expect(got).toBe(rows.length - kept.length);
    model.set(threadId, kept);
    const fork = forksOf(model).get(threadId);
    if (fork !== undefined && fork.atSeq > this.seq) {
      // Cut below its fork seq, a fork is the fork of the thread whose rows it now ends with.
      if (this.seq > 0) fork.parent = ownerAt(model, fork.parent, this.seq);
      fork.atSeq = this.seq;
    }
  }
  toString = () => `truncateAfter(t${this.thread}, ${this.seq})`;
}

class ForkCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly thread: number,
    readonly target: number,
    readonly atSeq: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const threadId = real.ids[this.thread] as string;
    const newThreadId = real.ids[this.target] as string;
    const got = await outcome(real.store.forkThread(threadId, { atSeq: this.atSeq, newThreadId }));
    const rows = model.get(threadId);
    if (rows === undefined) {
      expect(got).toStrictEqual({ error: 'thread-not-found' });
      return;
    }
    if (model.has(newThreadId)) {
      expect(got).toStrictEqual({ error: 'thread-exists' });
      return;
    }
    // A fork inside a turn (the row after it belongs to the same turn) is refused.
    const at = rows.find((r) => r.seq === this.atSeq);
    const next = rows.find((r) => r.seq === this.atSeq + 1);
    if (at !== undefined && next !== undefined && at.turnId === next.turnId) {
      expect(got).toStrictEqual({ error: 'invalid-option' });
      return;
    }
    const copied = rows
      .filter((r) => r.seq <= this.atSeq)
      .map((r) => ({ ...r, threadId: newThreadId }));
    // Its parent is the thread whose rows it ends with, not always the one forked.
    const parent = ownerAt(model, threadId, copied.length);
    model.set(newThreadId, copied);
    forksOf(model).set(newThreadId, { parent, atSeq: copied.length });
    expect(got).toMatchObject({
      id: newThreadId,
      total: copied.length,
      forkOf: { threadId: parent, atSeq: copied.length },
    });
  }
  toString = () => `fork(t${this.thread} → t${this.target}, ${this.atSeq})`;
}

class DeleteCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly thread: number) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const threadId = real.ids[this.thread] as string;
    const got = await outcome(real.store.deleteThread(threadId));
    if (model.has(threadId) && heldAbove(model, threadId, 0)) {
      expect(got).toStrictEqual({ error: 'thread-has-forks' });
      return;
    }
    expect(got).toBe(model.has(threadId));
    model.delete(threadId);
    forksOf(model).delete(threadId);
  }
  toString = () => `delete(t${this.thread})`;
}

class ReadAllCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly thread: number) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const threadId = real.ids[this.thread] as string;
    const got = await outcome(real.store.getRows(threadId));
    const rows = model.get(threadId);
    if (rows === undefined) expect(got).toStrictEqual({ error: 'thread-not-found' });
    else expect(strip(got as ChunkRow[])).toStrictEqual(rows);
  }
  toString = () => `getRows(t${this.thread})`;
}

class HistoryCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly thread: number) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const threadId = real.ids[this.thread] as string;
    const got = await outcome(real.store.getHistory(threadId));
    const rows = model.get(threadId);
    if (rows === undefined) {
      expect(got).toStrictEqual({ error: 'thread-not-found' });
      return;
    }
    // The one history read, through the chain, folds exactly the rows the model holds.
    const stored = await real.store.getRows(threadId);
    expect(strip(stored)).toStrictEqual(rows);
    expect((got as HistoryRead).messages).toStrictEqual(groupRowsToMessages(stored));
    expect((got as HistoryRead).fold.seq).toBe(rows.length);
  }
  toString = () => `getHistory(t${this.thread})`;
}

function commands(text: fc.Arbitrary<string>) {
  const thread = fc.integer({ min: 0, max: THREADS - 1 });
  const seq = fc.integer({ min: 0, max: 14 });
  return fc.commands(
    [
      fc
        .tuple(thread, fc.integer({ min: 0, max: 5 }), fc.array(text, { maxLength: 4 }))
        .map(([t, turn, texts]) => new AppendCommand(t, turn, texts)),
      fc
        .tuple(thread, fc.integer({ min: 1, max: 6 }), fc.option(seq, { nil: undefined }))
        .map(([t, limit, before]) => new PageCommand(t, limit, before)),
      fc
        .tuple(thread, fc.integer({ min: 1, max: 6 }), fc.option(seq, { nil: undefined }))
        .map(([t, limit, afterSeq]) => new PageAfterCommand(t, limit, afterSeq)),
      fc.tuple(thread, fc.integer({ min: 0, max: 5 })).map(([t, turn]) => new TurnCommand(t, turn)),
      fc.tuple(thread, seq).map(([t, s]) => new TruncateCommand(t, s)),
      // Forks twice as often, half of them at the end (always a turn boundary), so that chains
      // of forks with rows of their own come up.
      fc.tuple(thread, thread, seq).map(([t, target, s]) => new ForkCommand(t, target, s)),
      fc.tuple(thread, thread).map(([t, target]) => new ForkCommand(t, target, 99)),
      thread.map((t) => new DeleteCommand(t)),
      thread.map((t) => new ReadAllCommand(t)),
      thread.map((t) => new HistoryCommand(t)),
    ],
    { maxCommands: 40, size: '+1' },
  );
}

const available = await availableDialects();
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

for (const name of ['sqlite', 'postgres', 'mysql'] as const) {
  describe.skipIf(!available.includes(name))(`${name}: the store behaves like the model`, () => {
    it('for random sequences of append, pages, turn lookups, truncate, fork and delete', async () => {
      const harness = createHarness(name);
      harnesses.push(harness);
      const store = harness.openStore();
      await store.migrate();
      // Any string, NUL and lone surrogates too: native JSON columns (jsonb, MySQL's JSON)
      // refuse them, and the store keeps such a value as its JSON text.
      const text = fc.string({ unit: 'binary', maxLength: 12 });
      let run = 0;
      try {
        await fc.assert(
          fc.asyncProperty(commands(text), async (cmds) => {
            run++;
            const ids = Array.from({ length: THREADS }, (_, i) => `model-${run}-${i}`);
            const setup = () => ({ model: new Map() as Model, real: { store, ids } });
            await fc.asyncModelRun(setup, cmds);
            // Forks first: a thread with forks is not deleted until they are.
            for (let pass = 0; pass < THREADS; pass++) {
              for (const id of ids) await outcome(store.deleteThread(id));
            }
          }),
          { numRuns: name === 'sqlite' ? 300 : 60 },
        );
      } finally {
        await store.close();
      }
    }, 240_000);
  });
}
