// Model-based test of ChunkWindow (invariant 7 of ARCHITECTURE.md). One command class per
// operation, run by fc.scheduledModelRun so that page loads resolve at random points between
// commands (loadOlder, reconcile and live events race). The model is deliberately simple: the
// events of each turn, the store's rows, and whether the user is scrolled up. After every command
// the window is checked against it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { ChunklogError } from '../../src/errors/index.js';
import { foldTurn } from '../../src/reducer/index.js';
import type { ChunkEvent, ChunkRow, ChunkRowDraft } from '../../src/schema/index.js';
import { explodeTurn, groupRowsToMessages } from '../../src/transforms/index.js';
import {
  type ChunkPage,
  ChunkWindow,
  type LoadPageRequest,
  type LogEntry,
} from '../../src/window/index.js';
import { verifyRowCounts } from '../../src/window/row-count.js';
import { MemoryThread, storedDrafts } from './support/page-source.js';

// Check the targeted row counting against a full recount after every event.
verifyRowCounts(true);

// ---------------------------------------------------------------------------------------------
// The page source: an in-memory thread whose answers the scheduler releases.

interface Plan {
  readonly fail: boolean;
  /** Extra rows at or after `before` (a sloppy server; the window must dedupe). */
  readonly overlap: number;
  /** The most rows the server returns, whatever is asked. */
  readonly cap: number;
}

const NORMAL: Plan = { fail: false, overlap: 0, cap: Number.POSITIVE_INFINITY };

class ScheduledSource {
  plan: Plan = NORMAL;
  constructor(
    readonly thread: MemoryThread,
    readonly s: fc.Scheduler,
  ) {}

  readonly loadPage = (request: LoadPageRequest): Promise<ChunkPage> => {
    const plan = this.plan;
    const page = this.thread.page({ ...request, limit: Math.min(request.limit, plan.cap) });
    const before = request.before;
    const chunks =
      before === undefined || plan.overlap === 0
        ? page.chunks
        : [
            ...page.chunks,
            ...this.thread.rows.filter((r) => r.seq >= before && r.seq < before + plan.overlap),
          ];
    return this.s.schedule(Promise.resolve(), `page ${JSON.stringify(request)}`).then(() => {
      if (plan.fail) throw new Error('server error');
      return { ...page, chunks };
    });
  };

  /** Runs `call` with `plan` for the requests it makes synchronously. */
  with<T>(plan: Plan, call: () => T): T {
    this.plan = plan;
    try {
      return call();
    } finally {
      this.plan = NORMAL;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The model.

interface ModelTurn {
  readonly id: string;
  readonly events: ChunkEvent[];
  readonly userText: string | undefined;
  ended: boolean;
}

interface Model {
  readonly limit: number;
  readonly turns: Map<string, ModelTurn>;
  current: ModelTurn | null;
  open: 'text' | 'thinking' | null;
  scrolledUp: boolean;
  nextTurn: number;
  /** While scrolled up: what the window held at the last check (nothing may be evicted). */
  baseline: { seqs: ReadonlySet<number>; liveFirst: ReadonlyMap<string, number> } | undefined;
}

interface Real {
  readonly window: ChunkWindow;
  readonly thread: MemoryThread;
  readonly source: ScheduledSource;
  readonly failures: unknown[];
}

function track(real: Real, promise: Promise<void>): void {
  promise.catch((error: unknown) => {
    if (!ChunklogError.hasCode(error, 'load-failed')) real.failures.push(error);
  });
}

/** A reconcile settles only at the bottom: while scrolled up it waits. */
function trackReconcile(real: Real, promise: Promise<void>): void {
  track(
    real,
    promise.then(() => {
      if (real.window.scrolledUp)
        real.failures.push(new Error('reconcile settled while scrolled up'));
    }),
  );
}

function apply(model: Model, real: Real, event: ChunkEvent): void {
  model.current?.events.push(event);
  real.window.apply(event);
}

function closeBlock(model: Model, real: Real): void {
  if (model.open === 'text') apply(model, real, { type: 'text-end' });
  if (model.open === 'thinking') apply(model, real, { type: 'reasoning-end' });
  model.open = null;
}

// ---------------------------------------------------------------------------------------------
// Checks, after every command.

function rowContent(e: ChunkRowDraft): unknown {
  return { turnId: e.turnId, step: e.step, role: e.role, type: e.type, data: e.data };
}

function rowsPerChunk(turnId: string, events: readonly ChunkEvent[]) {
  const state = foldTurn(events);
  const perChunk = state.chunks.map((c) => explodeTurn(turnId, [c], { role: 'assistant' }).length);
  return { state, rows: explodeTurn(turnId, state.chunks, { role: 'assistant' }), perChunk };
}

function check(model: Model, real: Real): void {
  const { window, thread } = real;
  expect(real.failures).toEqual([]);
  const snapshot = window.getSnapshot();
  const log = snapshot.log;
  expect(window.getSnapshot()).toBe(snapshot);
  expect(snapshot.scrolledUp).toBe(model.scrolledUp);

  // Stored rows first, dense ascending seqs, each equal to the store's row.
  const sealedCount = log.findIndex((e) => e.live);
  const sealed = (sealedCount < 0 ? log : log.slice(0, sealedCount)) as LogEntry[];
  const live = sealedCount < 0 ? [] : log.slice(sealedCount);
  expect(live.every((e) => e.live && e.seq === null)).toBe(true);
  sealed.forEach((e, i) => {
    expect(e.live).toBe(false);
    expect(e.id).toBe(`#${e.seq}`);
    if (i > 0) expect(e.seq).toBe((sealed[i - 1]?.seq as number) + 1);
    expect(rowContent(e)).toEqual(rowContent(thread.rows[(e.seq as number) - 1] as ChunkRow));
  });
  if (sealed.length > 0) expect(snapshot.hasOlder).toBe((sealed[0]?.seq as number) > 1);
  expect(snapshot.oldestSeq).toBe(sealed[0]?.seq ?? null);
  expect(new Set(log.map((e) => e.id)).size).toBe(log.length);

  // No turn both stored and live (no duplicates).
  const storedTurns = new Set(sealed.map((e) => e.turnId));
  for (const e of live) expect(storedTurns.has(e.turnId)).toBe(false);

  // Each live turn is a suffix of the whole turn's rows; pending user rows a suffix of its rows.
  const liveTurnIds = [...new Set(live.map((e) => e.turnId))];
  const liveFirst = new Map<string, number>();
  for (const turnId of liveTurnIds) {
    const turn = model.turns.get(turnId);
    expect(turn).toBeDefined();
    if (turn === undefined) continue;
    const own = live.filter((e) => e.turnId === turnId && !e.pending);
    const pending = live.filter((e) => e.turnId === turnId && e.pending);
    const full = rowsPerChunk(turnId, turn.events);
    const first = full.rows.length - own.length;
    expect(first).toBeGreaterThanOrEqual(0);
    own.forEach((e, i) => {
      expect(e.id).toBe(`${turnId}:${first + i}`);
      expect(rowContent(e)).toEqual(rowContent(full.rows[first + i] as LogEntry));
    });
    liveFirst.set(turnId, first);
    const userRows =
      turn.userText === undefined
        ? []
        : explodeTurn(turnId, [{ type: 'text', step: 0, text: turn.userText }], { role: 'user' });
    expect(pending.map(rowContent)).toEqual(
      userRows.slice(userRows.length - pending.length).map(rowContent),
    );
    // Pending rows come right before their turn's rows.
    if (pending.length > 0 && own.length > 0) {
      expect(live.indexOf(pending.at(-1) as LogEntry) + 1).toBe(live.indexOf(own[0] as LogEntry));
    }
  }

  // The open chunk is held, and is the model's open chunk.
  const current = model.current;
  if (current !== null && !current.ended && model.open !== null) {
    const full = rowsPerChunk(current.id, current.events);
    const state = snapshot.liveTurn;
    expect(snapshot.liveTurnId).toBe(current.id);
    expect(state?.openIndex).not.toBeNull();
    const openAt = (state?.openIndex as number) + (state?.evicted as number);
    expect(openAt).toBe(full.state.openIndex);
    expect(state?.chunkAt(state.openIndex as number)).toEqual(
      full.state.chunkAt(full.state.openIndex as number),
    );
    // Invariant 7: over the limit only when nothing but the open chunk (and later rows) is left.
    if (!model.scrolledUp && log.length > model.limit) {
      const turnStart = log.findIndex((e) => e.turnId === current.id && !e.pending);
      const evicted = state?.evicted as number;
      let before = turnStart;
      for (let c = evicted; c < openAt; c++) before += full.perChunk[c] as number;
      expect(before).toBe(0);
    }
  } else if (!model.scrolledUp) {
    expect(log.length).toBeLessThanOrEqual(model.limit);
  }

  // While scrolled up nothing is evicted (stored rows or live turns' leading rows).
  if (model.scrolledUp && model.baseline !== undefined) {
    const seqs = new Set(sealed.map((e) => e.seq as number));
    for (const seq of model.baseline.seqs) expect(seqs.has(seq)).toBe(true);
    // Only older pages come in while scrolled up: the reconcile waits for the bottom.
    const oldest = Math.min(...model.baseline.seqs);
    if (model.baseline.seqs.size > 0) {
      for (const seq of seqs) if (!model.baseline.seqs.has(seq)) expect(seq).toBeLessThan(oldest);
    }
    for (const [turnId, first] of model.baseline.liveFirst) {
      const now = liveFirst.get(turnId);
      if (now !== undefined) expect(now).toBe(first);
    }
  }
  model.baseline = model.scrolledUp
    ? { seqs: new Set(sealed.map((e) => e.seq as number)), liveFirst }
    : undefined;

  // The render projection.
  expect(snapshot.groups).toEqual(groupRowsToMessages(log));
}

// ---------------------------------------------------------------------------------------------
// Commands: one class per operation.

type Cmd = fc.AsyncCommand<Model, Real>;

class StartTurn implements Cmd {
  constructor(
    readonly userText: string | undefined,
    readonly named: boolean,
  ) {}
  check(m: Readonly<Model>): boolean {
    return m.current === null || m.current.ended;
  }
  async run(m: Model, r: Real): Promise<void> {
    check(m, r);
    const id = `t${m.nextTurn++}`;
    const turn: ModelTurn = { id, events: [], userText: this.userText, ended: false };
    m.turns.set(id, turn);
    m.current = turn;
    m.open = null;
    if (this.userText !== undefined) {
      r.window.addPendingUserMessage(this.userText, this.named ? { turnId: id } : {});
    }
    apply(m, r, { type: 'turn-start', turnId: id });
    check(m, r);
  }
  toString(): string {
    return `StartTurn(${JSON.stringify(this.userText)}, named=${this.named})`;
  }
}

class Delta implements Cmd {
  constructor(
    readonly kind: 'text' | 'thinking',
    readonly text: string,
  ) {}
  check(m: Readonly<Model>): boolean {
    return m.current !== null && !m.current.ended;
  }
  async run(m: Model, r: Real): Promise<void> {
    check(m, r);
    if (m.open !== this.kind) {
      closeBlock(m, r);
      apply(m, r, { type: this.kind === 'text' ? 'text-start' : 'reasoning-start' });
      m.open = this.kind;
    }
    apply(m, r, {
      type: this.kind === 'text' ? 'text-delta' : 'reasoning-delta',
      text: this.text,
    });
    check(m, r);
  }
  toString(): string {
    return `Delta(${this.kind}, ${JSON.stringify(this.text)})`;
  }
}

class CloseBlock implements Cmd {
  check(m: Readonly<Model>): boolean {
    return m.current !== null && !m.current.ended && m.open !== null;
  }
  async run(m: Model, r: Real): Promise<void> {
    check(m, r);
    closeBlock(m, r);
    check(m, r);
  }
  toString(): string {
    return 'CloseBlock';
  }
}

class ToolRound implements Cmd {
  constructor(readonly calls: number) {}
  check(m: Readonly<Model>): boolean {
    return m.current !== null && !m.current.ended;
  }
  async run(m: Model, r: Real): Promise<void> {
    check(m, r);
    closeBlock(m, r);
    // A new step: its calls make a new batch, whatever was evicted before. A batch with more rows
    // than the limit would be evicted whole and its later results orphaned (see eviction.test.ts),
    // which the simple model does not follow: keep batches within the limit.
    apply(m, r, { type: 'step-start' });
    const n = Math.min(this.calls, Math.floor(m.limit / 2));
    const ids = Array.from(
      { length: n },
      (_, i) => `${m.current?.id}-${m.current?.events.length}-${i}`,
    );
    for (const id of ids)
      apply(m, r, { type: 'tool-call', toolCallId: id, toolName: 'read', input: { id } });
    for (const id of ids) {
      apply(m, r, { type: 'tool-result', toolCallId: id, toolName: 'read', output: `out ${id}` });
    }
    check(m, r);
  }
  toString(): string {
    return `ToolRound(${this.calls})`;
  }
}

class EndTurn implements Cmd {
  check(m: Readonly<Model>): boolean {
    return m.current !== null && !m.current.ended;
  }
  async run(m: Model, r: Real): Promise<void> {
    check(m, r);
    const turn = m.current as ModelTurn;
    closeBlock(m, r);
    apply(m, r, { type: 'turn-end', finishReason: 'stop' });
    turn.ended = true;
    // The session stores the turn before the client hears that it ended.
    r.thread.append(storedDrafts(turn.id, turn.events, turn.userText));
    check(m, r);
  }
  toString(): string {
    return 'EndTurn';
  }
}

class LoadOlder implements Cmd {
  constructor(readonly plan: Plan) {}
  check(): boolean {
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    check(m, r);
    track(
      r,
      r.source.with(this.plan, () => r.window.loadOlder()),
    );
    check(m, r);
  }
  toString(): string {
    return `LoadOlder(${JSON.stringify(this.plan)})`;
  }
}

class Reconcile implements Cmd {
  constructor(readonly plan: Plan) {}
  check(): boolean {
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    check(m, r);
    trackReconcile(
      r,
      r.source.with(this.plan, () => r.window.reconcile()),
    );
    check(m, r);
  }
  toString(): string {
    return `Reconcile(${JSON.stringify(this.plan)})`;
  }
}

class Scroll implements Cmd {
  constructor(readonly up: boolean) {}
  check(): boolean {
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    check(m, r);
    r.window.setScrolledUp(this.up);
    m.scrolledUp = this.up;
    m.baseline = undefined;
    check(m, r);
  }
  toString(): string {
    return `Scroll(${this.up ? 'up' : 'down'})`;
  }
}

class Evict implements Cmd {
  constructor(readonly force: boolean) {}
  check(): boolean {
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    check(m, r);
    const before = r.window.log.length;
    const dropped = r.window.evict({ force: this.force });
    expect(r.window.log.length).toBe(before - dropped);
    if (m.scrolledUp && !this.force) expect(dropped).toBe(0);
    if (this.force) m.baseline = undefined;
    check(m, r);
  }
  toString(): string {
    return `Evict(force=${this.force})`;
  }
}

const plans: fc.Arbitrary<Plan> = fc.record({
  fail: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
  overlap: fc.nat({ max: 4 }),
  cap: fc.oneof(fc.constant(Number.POSITIVE_INFINITY), fc.integer({ min: 1, max: 4 })),
});

const commands = fc.commands(
  [
    fc
      .tuple(fc.option(fc.string({ minLength: 1, maxLength: 6 }), { nil: undefined }), fc.boolean())
      .map(([text, named]) => new StartTurn(text, named)),
    fc
      .tuple(fc.constantFrom('text' as const, 'thinking' as const), fc.string({ maxLength: 4 }))
      .map(([kind, text]) => new Delta(kind, text)),
    fc
      .tuple(fc.constantFrom('text' as const, 'thinking' as const), fc.string({ maxLength: 4 }))
      .map(([kind, text]) => new Delta(kind, text)),
    fc.constant(new CloseBlock()),
    fc.integer({ min: 1, max: 3 }).map((n) => new ToolRound(n)),
    fc.constant(new EndTurn()),
    plans.map((plan) => new LoadOlder(plan)),
    plans.map((plan) => new LoadOlder(plan)),
    plans.map((plan) => new Reconcile(plan)),
    plans.map((plan) => new Reconcile(plan)),
    fc.boolean().map((up) => new Scroll(up)),
    fc.boolean().map((up) => new Scroll(up)),
    fc.boolean().map((force) => new Evict(force)),
  ],
  { maxCommands: 80, size: 'large' },
);

describe('ChunkWindow against a model (invariant 7)', () => {
  it('holds under random interleavings of events, loads, reconciles, scrolls and evictions', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.integer({ min: 2, max: 9 }),
        fc.integer({ min: 1, max: 6 }),
        commands,
        async (s, limit, pageSize, cmds) => {
          const thread = new MemoryThread();
          const source = new ScheduledSource(thread, s);
          const window = new ChunkWindow({ limit, pageSize, loadPage: source.loadPage });
          const model: Model = {
            limit,
            turns: new Map(),
            current: null,
            open: null,
            scrolledUp: false,
            nextTurn: 0,
            baseline: undefined,
          };
          const real: Real = { window, thread, source, failures: [] };
          await fc.scheduledModelRun(s, () => ({ model, real }), cmds);
          check(model, real);

          // Settle: end the turn, go to the bottom, reconcile. The log is the store's tail.
          if (model.current !== null && !model.current.ended) await new EndTurn().run(model, real);
          window.setScrolledUp(false);
          model.scrolledUp = false;
          const settled = window.reconcile();
          await s.waitFor(settled);
          await s.waitIdle();
          check(model, real);
          expect(window.log.every((e) => !e.live)).toBe(true);
          expect(window.liveTurnId).toBe(null);
          expect(window.log.map((e) => e.seq)).toEqual(thread.tail(limit).map((r) => r.seq));
          expect(window.groups).toEqual(groupRowsToMessages(thread.tail(limit)));

          // Then the whole history pages back in, each row once.
          window.setScrolledUp(true);
          model.scrolledUp = true;
          for (let guard = 0; window.hasOlder && guard < 1000; guard++) {
            const older = window.loadOlder();
            await s.waitFor(older);
          }
          expect(window.log.map((e) => e.seq)).toEqual(thread.rows.map((r) => r.seq));
          expect(window.groups).toEqual(groupRowsToMessages(thread.rows));
        },
      ),
      { numRuns: Number(process.env.WINDOW_PROP_RUNS ?? 200) },
    );
    // 200 runs take about 5 s on an idle machine and 24 s under scripts/stress-test.sh: a margin
    // that load cannot reach, not a measure of speed.
  }, 180_000);
});
