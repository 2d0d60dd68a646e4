// Model-based (issue 32): random sequences of send, edit, regenerate, switch, fork, truncate and
// delete on conversations with alternatives give the same answers from the store as from a
// deliberately simple in-memory model (support/conversation-model.ts: every path a copy, branch
// points found by comparing copied paths). Checked on every dialect available: (1) every path
// reads as the model's (getRows, pages both ways); (2) no row is lost: the rows read through the
// live paths are exactly those written and not discarded by truncate or delete; (3) getAlternatives
// lists the model's branch points; (4) the active path's next model input is byte for byte, through
// the real Anthropic and OpenAI request builders, that of a plain thread of the same turns.
import { type ModelMessage, tool } from 'ai';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChunklogError } from '../../src/errors/index.js';
import { toModelMessages } from '../../src/model-messages/index.js';
import type { Chunk } from '../../src/schema/chunk.js';
import type { ChunkRow, ChunkRowDraft } from '../../src/schema/chunk-row.js';
import type { Alternatives, ChunkStore } from '../../src/store/index.js';
import { explodeTurn } from '../../src/transforms/explode-turn.js';
import { requestBody } from '../session/support/provider-request.js';
import {
  ConversationModel,
  type ModelRow,
  type ModelThread,
  rowKey,
} from './support/conversation-model.js';
import { availableDialects, createHarness, type DialectHarness } from './support/dialects.js';
import { firstModelInput } from './support/history-turns.js';

/** The store, and the ids of one run: every thread of a run is owned by `owner`. */
class Real {
  #threads = 0;
  #turns = 0;
  constructor(
    readonly store: ChunkStore,
    readonly owner: string,
  ) {}
  threadId(kind: string): string {
    return `${this.owner}-${kind}${this.#threads++}`;
  }
  turnId(): string {
    return `${this.owner}-t${this.#turns++}`;
  }
}

type Command = fc.AsyncCommand<ConversationModel, Real>;

const strip = (rows: readonly ChunkRow[]): ModelRow[] =>
  rows.map(({ createdAt: _, ...rest }) => rest as ModelRow);

const pick = <T>(items: readonly T[], n: number): T | undefined => items[n % items.length];

async function outcome<T>(work: Promise<T>): Promise<T | { error: string }> {
  try {
    return await work;
  } catch (error) {
    if (ChunklogError.isInstance(error)) return { error: error.code };
    throw error;
  }
}

/** What a turn's answer holds besides its text. */
interface TurnShape {
  readonly reasoning: boolean;
  readonly tool: boolean;
}

const tools = {
  lookup: tool({
    description: 'Look up',
    inputSchema: z.object({ q: z.string() }),
    execute: async ({ q }) => `found ${q}`,
  }),
};

/** A turn's rows: the user's text, then an answer with reasoning and a tool call when asked. */
function turnDrafts(turnId: string, shape: TurnShape, question: string): ChunkRowDraft[] {
  const answer: Chunk[] = [];
  if (shape.reasoning) {
    answer.push({
      type: 'thinking',
      step: 0,
      text: `thinking about ${question}`,
      providerMetadata: { anthropic: { signature: `sig-${turnId}` } },
    });
  }
  if (shape.tool) {
    answer.push({
      type: 'tool-batch',
      step: 0,
      calls: [
        { id: `call-${turnId}`, name: 'lookup', input: { q: question }, result: `found ${turnId}` },
      ],
    });
  }
  answer.push({ type: 'text', step: shape.tool ? 1 : 0, text: `answer ${turnId} ✓` });
  return [
    ...explodeTurn(turnId, [{ type: 'text', step: 0, text: question }], { role: 'user' }),
    ...explodeTurn(turnId, answer, { role: 'assistant' }),
  ];
}

// ---- The invariants -------------------------------------------------------------------------

/** (1) A path reads as the model's: getRows, pages backwards and forwards, and its thread row. */
async function checkPath(real: Real, thread: ModelThread, limit: number): Promise<ModelRow[]> {
  const { store } = real;
  const rows = strip(await store.getRows(thread.id));
  expect(rows).toStrictEqual(thread.rows);
  const back: ModelRow[] = [];
  for (let before: number | undefined; ; ) {
    const page = await store.getChunks(thread.id, { limit, before });
    expect(page.total).toBe(thread.rows.length);
    back.unshift(...strip(page.chunks));
    if (!page.hasMore) break;
    before = page.oldestSeq ?? 1;
  }
  expect(back).toStrictEqual(thread.rows);
  const forward: ModelRow[] = [];
  for (let afterSeq = 0; ; ) {
    const page = await store.getChunksAfter(thread.id, { limit, afterSeq });
    expect(page.total).toBe(thread.rows.length);
    forward.push(...strip(page.chunks));
    if (!page.hasMore) break;
    afterSeq = page.newestSeq ?? 0;
  }
  expect(forward).toStrictEqual(thread.rows);
  const got = await store.getThread(thread.id);
  expect({
    total: got.total,
    forkOf: got.forkOf,
    alternativeOf: got.alternativeOf,
    activePath: got.activePath,
  }).toEqual({
    total: thread.rows.length,
    forkOf:
      thread.parent === undefined ? undefined : { threadId: thread.parent, atSeq: thread.forkSeq },
    alternativeOf: thread.conversation,
    activePath: thread.active === thread.id ? undefined : thread.active,
  });
  return rows;
}

/** (3) What getAlternatives should answer for a conversation. */
function expectedAlternatives(model: ConversationModel, conversationId: string): Alternatives {
  return {
    conversationId,
    activePath: model.active(conversationId).id,
    branches: model.branches(conversationId),
    versions: model.versions(conversationId),
  };
}

/** (3), and (1) for its active path: after each command, on the conversation it touched. */
async function checkConversation(
  real: Real,
  model: ConversationModel,
  conversationId: string,
): Promise<void> {
  if (!model.threads.has(conversationId)) return;
  const active = model.active(conversationId);
  expect(await real.store.activePath(conversationId)).toBe(active.id);
  expect(strip(await real.store.getRows(active.id))).toStrictEqual(active.rows);
  expect(await real.store.getAlternatives(conversationId)).toEqual(
    expectedAlternatives(model, conversationId),
  );
}

/**
 * (1) every live path, (2) the rows read through them are exactly the rows written and not
 * discarded, (3) every conversation's alternatives, and the conversations listThreads lists.
 */
async function checkAll(real: Real, model: ConversationModel, limit: number): Promise<void> {
  const read = new Set<string>();
  for (const thread of model.threads.values()) {
    for (const row of await checkPath(real, thread, limit)) read.add(rowKey(row));
  }
  expect([...read].sort()).toStrictEqual([...model.written.keys()].sort());
  for (const conversation of model.conversations()) {
    await checkConversation(real, model, conversation.id);
  }
  const listed = await real.store.listThreads({ ownerId: real.owner, limit: 1000 });
  expect(listed.threads.map((t) => t.id).sort()).toStrictEqual(
    model
      .conversations()
      .map((t) => t.id)
      .sort(),
  );
}

const NEXT: ModelMessage = { role: 'user', content: 'And now?' };

/**
 * (4) The active path's next model input (its history as the session reads it, and a new user
 * message) is what a plain thread of the same turns, appended in order, sends: the same model
 * messages and, through the real request builders, the same request bodies byte for byte.
 */
async function checkModelInput(
  real: Real,
  model: ConversationModel,
  conversationId: string,
): Promise<void> {
  const { store } = real;
  const active = model.active(conversationId);
  const plain = `${real.threadId('plain')}`;
  await store.createThread(plain);
  try {
    for (const turn of ConversationModel.turns(active.rows)) {
      await store.appendTurn(
        plain,
        turn.rows.map(({ threadId: _t, seq: _s, ...draft }) => draft as ChunkRowDraft),
      );
    }
    const history = toModelMessages((await store.getHistory(active.id)).messages);
    const messages = toModelMessages(await store.getMessages(active.id));
    const reference = toModelMessages((await store.getHistory(plain)).messages);
    expect(history).toStrictEqual(reference);
    expect(messages).toStrictEqual(reference);
    // And as a session over the thread builds its next input.
    expect(await firstModelInput(store, active.id)).toBe(await firstModelInput(store, plain));
    for (const provider of ['anthropic', 'openai'] as const) {
      const sent = JSON.stringify(await requestBody(provider, [...history, NEXT], tools));
      const expected = JSON.stringify(await requestBody(provider, [...reference, NEXT], tools));
      expect(sent).toBe(expected);
    }
  } finally {
    await store.deleteThread(plain);
  }
}

// ---- The commands ---------------------------------------------------------------------------

/** send: turns appended to a conversation's active path (sometimes a new conversation's). */
class SendCommand implements Command {
  constructor(
    readonly conversation: number,
    readonly shapes: readonly TurnShape[],
    readonly fresh: boolean,
  ) {}
  check = () => true;
  async run(model: ConversationModel, real: Real): Promise<void> {
    let conversation = pick(model.conversations(), this.conversation)?.id;
    if (this.fresh || conversation === undefined) {
      conversation = real.threadId('c');
      const made = await real.store.createThread(conversation, { ownerId: real.owner });
      model.create(conversation, made.createdAt);
    }
    const activeId = await real.store.activePath(conversation);
    expect(activeId).toBe(model.active(conversation).id);
    for (const shape of this.shapes) {
      const turnId = real.turnId();
      const drafts = turnDrafts(turnId, shape, `question ${turnId}`);
      expect(strip(await real.store.appendTurn(activeId, drafts))).toStrictEqual(
        model.append(activeId, drafts),
      );
    }
    await checkConversation(real, model, conversation);
  }
  toString = () =>
    `send(c${this.conversation}${this.fresh ? ' new' : ''}, ${JSON.stringify(this.shapes)})`;
}

/**
 * edit / regenerate: an alternative of a turn of the active path, then (unless `write` is off)
 * its new version: another question (edit) or the same question with a new answer (regenerate).
 */
class AlternativeCommand implements Command {
  constructor(
    readonly kind: 'edit' | 'regenerate',
    readonly conversation: number,
    readonly turn: number,
    readonly shape: TurnShape,
    readonly write: boolean,
  ) {}
  check = () => true;
  async run(model: ConversationModel, real: Real): Promise<void> {
    const conversation = pick(model.conversations(), this.conversation);
    if (conversation === undefined) return;
    const active = model.active(conversation.id);
    const turn = pick(ConversationModel.turns(active.rows), this.turn);
    if (turn === undefined) return;
    const id = real.threadId('a');
    const made = await real.store.addAlternative(conversation.id, {
      turnId: turn.turnId,
      newThreadId: id,
    });
    model.fork(active.id, turn.before, id, made.createdAt, conversation.id);
    // Its parent is the thread whose rows it ends with: the active one, or one it reads there.
    expect({
      id: made.id,
      total: made.total,
      forkOf: made.forkOf,
      alternativeOf: made.alternativeOf,
    }).toEqual({
      id,
      total: turn.before,
      forkOf: { threadId: model.thread(id).parent, atSeq: turn.before },
      alternativeOf: conversation.id,
    });
    conversation.active = id;
    if (this.write) {
      const turnId = real.turnId();
      const asked = turn.rows.find((r) => r.role === 'user' && r.type === 'text')?.data as {
        text: string;
      };
      const question = this.kind === 'edit' ? `edited ${turnId}` : asked.text;
      const drafts = turnDrafts(turnId, this.shape, question);
      expect(strip(await real.store.appendTurn(id, drafts))).toStrictEqual(
        model.append(id, drafts),
      );
    }
    await checkConversation(real, model, conversation.id);
  }
  toString = () =>
    `${this.kind}(c${this.conversation}, turn ${this.turn}${this.write ? '' : ', unwritten'}, ${JSON.stringify(this.shape)})`;
}

/** switch: to a version of a branch point getAlternatives lists (once in five, to any member). */
class SwitchCommand implements Command {
  constructor(
    readonly conversation: number,
    readonly branch: number,
    readonly version: number,
  ) {}
  check = () => true;
  async run(model: ConversationModel, real: Real): Promise<void> {
    const conversation = pick(model.conversations(), this.conversation);
    if (conversation === undefined) return;
    const listed = await real.store.getAlternatives(conversation.id);
    expect(listed).toEqual(expectedAlternatives(model, conversation.id));
    if (this.version % 5 === 0) {
      // Any member of the conversation, whether a branch point lists it or not.
      const target = pick(model.members(conversation.id), this.branch)?.id as string;
      const got = await real.store.switchAlternative(conversation.id, target);
      conversation.active = target;
      expect(got).toEqual(expectedAlternatives(model, conversation.id));
      await checkConversation(real, model, conversation.id);
      return;
    }
    const branch = pick(listed.branches, this.branch);
    if (branch === undefined) return;
    const index = this.version % branch.alternatives.length;
    const target = branch.alternatives[index]?.threadId as string;
    const got = await real.store.switchAlternative(conversation.id, target);
    conversation.active = target;
    expect(got).toEqual(expectedAlternatives(model, conversation.id));
    // The same branch point, its versions as they were, the one switched to active.
    const same = got.branches.find((b) => b.atSeq === branch.atSeq);
    expect(same?.alternatives.map((a) => a.turnId)).toEqual(
      branch.alternatives.map((a) => a.turnId),
    );
    expect(same?.active).toBe(index);
    await checkConversation(real, model, conversation.id);
  }
  toString = () => `switch(c${this.conversation}, branch ${this.branch}, version ${this.version})`;
}

/** fork: forkThread of the active path at a turn boundary (a new conversation), or inside a turn. */
class ForkCommand implements Command {
  constructor(
    readonly conversation: number,
    readonly at: number,
    readonly inside: boolean,
  ) {}
  check = () => true;
  async run(model: ConversationModel, real: Real): Promise<void> {
    const conversation = pick(model.conversations(), this.conversation);
    if (conversation === undefined) return;
    const active = model.active(conversation.id);
    const boundaries = ConversationModel.boundaries(active.rows);
    const id = real.threadId('f');
    if (this.inside) {
      const inside = active.rows.map((r) => r.seq).filter((s) => !boundaries.includes(s));
      const seq = pick(inside, this.at);
      if (seq === undefined) return;
      const got = await outcome(real.store.forkThread(active.id, { atSeq: seq, newThreadId: id }));
      expect(got).toStrictEqual({ error: 'invalid-option' });
      expect(await outcome(real.store.getThread(id))).toStrictEqual({ error: 'thread-not-found' });
      return;
    }
    // At 0 (an empty fork) once in six; else after a turn.
    const seq = (this.at % 6 === 0 ? 0 : pick(boundaries.slice(1), this.at)) ?? 0;
    const made = await real.store.forkThread(active.id, { atSeq: seq, newThreadId: id });
    model.fork(active.id, seq, id, made.createdAt, undefined);
    expect({ id: made.id, total: made.total, forkOf: made.forkOf }).toEqual({
      id,
      total: seq,
      forkOf: { threadId: model.thread(id).parent, atSeq: seq },
    });
    expect(made.alternativeOf).toBeUndefined();
    await checkConversation(real, model, conversation.id);
    await checkConversation(real, model, id);
  }
  toString = () =>
    `fork(c${this.conversation}, ${this.inside ? 'inside a turn' : 'boundary'} ${this.at})`;
}

/** truncate: truncateAfter on the active path at a turn boundary. */
class TruncateCommand implements Command {
  constructor(
    readonly conversation: number,
    readonly at: number,
  ) {}
  check = () => true;
  async run(model: ConversationModel, real: Real): Promise<void> {
    const conversation = pick(model.conversations(), this.conversation);
    if (conversation === undefined) return;
    const active = model.active(conversation.id);
    // The end (nothing to cut) once in eight; else a boundary before it.
    const boundaries = ConversationModel.boundaries(active.rows);
    const length = active.rows.length;
    const seq = (this.at % 8 === 0 ? length : pick(boundaries.slice(0, -1), this.at >> 3)) ?? 0;
    const got = await outcome(real.store.truncateAfter(active.id, seq));
    if (seq < length && model.forkedAbove(new Set([active.id]), seq)) {
      expect(got).toStrictEqual({ error: 'thread-has-forks' });
    } else {
      expect(got).toBe(length - seq);
      model.truncate(active.id, seq);
    }
    await checkConversation(real, model, conversation.id);
  }
  toString = () => `truncate(c${this.conversation}, boundary ${this.at})`;
}

/** delete: a conversation (with its alternatives), or any thread, an alternative included. */
class DeleteCommand implements Command {
  constructor(
    readonly thread: number,
    readonly anyThread: boolean,
  ) {}
  check = () => true;
  async run(model: ConversationModel, real: Real): Promise<void> {
    const candidates = this.anyThread ? [...model.threads.values()] : model.conversations();
    const thread = pick(candidates, this.thread);
    if (thread === undefined) return;
    const gone = model.deletion(thread.id);
    const got = await outcome(real.store.deleteThread(thread.id));
    if (model.forkedAbove(gone, 0)) {
      expect(got).toStrictEqual({ error: 'thread-has-forks' });
    } else {
      expect(got).toBe(true);
      model.delete(gone);
      for (const id of gone) {
        expect(await outcome(real.store.getThread(id))).toStrictEqual({
          error: 'thread-not-found',
        });
      }
    }
    if (thread.conversation !== undefined)
      await checkConversation(real, model, thread.conversation);
  }
  toString = () => `delete(${this.anyThread ? 'thread' : 'conversation'} ${this.thread})`;
}

/** (1), (2) and (3) over everything the model holds, paging by `limit`. */
class CheckCommand implements Command {
  constructor(readonly limit: number) {}
  check = () => true;
  run = (model: ConversationModel, real: Real) => checkAll(real, model, this.limit);
  toString = () => `checkAll(limit ${this.limit})`;
}

/** (4) for a conversation. */
class ModelInputCommand implements Command {
  constructor(readonly conversation: number) {}
  check = () => true;
  async run(model: ConversationModel, real: Real): Promise<void> {
    const conversation = pick(model.conversations(), this.conversation);
    if (conversation !== undefined) await checkModelInput(real, model, conversation.id);
  }
  toString = () => `modelInput(c${this.conversation})`;
}

function commands(maxCommands: number, modelInput: boolean) {
  const n = fc.nat({ max: 1000 });
  const shape = fc.record({
    reasoning: fc.nat({ max: 2 }).map((x) => x === 0),
    tool: fc.nat({ max: 2 }).map((x) => x === 0),
  });
  const oneIn = (k: number) => fc.nat({ max: k - 1 }).map((x) => x === 0);
  const send = fc
    .tuple(n, fc.array(shape, { minLength: 1, maxLength: 3 }), oneIn(12))
    .map(([c, shapes, fresh]) => new SendCommand(c, shapes, fresh));
  const alternative = (kind: 'edit' | 'regenerate') =>
    fc
      .tuple(n, n, shape, oneIn(6))
      .map(([c, t, s, unwritten]) => new AlternativeCommand(kind, c, t, s, !unwritten));
  const truncate = fc.tuple(n, n).map(([c, a]) => new TruncateCommand(c, a));
  const swap = fc.tuple(n, n, n).map(([c, b, v]) => new SwitchCommand(c, b, v));
  // Sends (of one to three turns) three times as often as the rest, truncation twice, so that
  // paths grow long enough for forks and truncations above and below branch points.
  return fc.commands(
    [
      send,
      send,
      send,
      alternative('edit'),
      alternative('edit'),
      alternative('regenerate'),
      alternative('regenerate'),
      swap,
      swap,
      fc.tuple(n, n, oneIn(4)).map(([c, a, inside]) => new ForkCommand(c, a, inside)),
      truncate,
      truncate,
      fc.tuple(n, fc.boolean()).map(([t, any]) => new DeleteCommand(t, any)),
      modelInput
        ? n.map((c) => new ModelInputCommand(c))
        : fc.integer({ min: 1, max: 5 }).map((l) => new CheckCommand(l)),
    ],
    { maxCommands, size: 'max' },
  );
}

// ---- The matrix -----------------------------------------------------------------------------

const available = await availableDialects();
const harnesses: DialectHarness[] = [];
beforeAll(() => {
  (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = false;
});
afterAll(async () => {
  (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = undefined;
  for (const h of harnesses) await h.dispose();
});

/** Runs `property` over random command sequences on a fresh store of the dialect. */
async function runModel(
  name: DialectHarness['name'],
  options: { numRuns: number; maxCommands: number; modelInput: boolean },
  after: (real: Real, model: ConversationModel) => Promise<void>,
): Promise<void> {
  const harness = createHarness(name);
  harnesses.push(harness);
  let now = Date.UTC(2026, 0, 1);
  const store = harness.openStore({ now: () => now++ });
  await store.migrate();
  let run = 0;
  try {
    await fc.assert(
      fc.asyncProperty(commands(options.maxCommands, options.modelInput), async (cmds) => {
        const real = new Real(store, `r${run++}`);
        const model = new ConversationModel();
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        await after(real, model);
      }),
      { numRuns: options.numRuns },
    );
  } finally {
    await store.close();
  }
}

// Runs per dialect: about 20 s for the first property and 5 s for the second on SQLite, and
// 30 s and 6 s on PostgreSQL or MariaDB, on a busy two-core machine.
const RUNS = {
  sqlite: { paths: 120, input: 30 },
  postgres: { paths: 50, input: 15 },
  mysql: { paths: 50, input: 15 },
} as const;

for (const name of ['sqlite', 'postgres', 'mysql'] as const) {
  describe.skipIf(!available.includes(name))(`${name}: alternatives behave like the model`, () => {
    it('over random send, edit, regenerate, switch, fork, truncate and delete: every path reads ' +
      "as the model's (getRows, pages both ways), no row is lost, and getAlternatives lists " +
      "the model's branch points (versions oldest first, the active one right)", async () => {
      await runModel(
        name,
        { numRuns: RUNS[name].paths, maxCommands: 40, modelInput: false },
        (real, model) => checkAll(real, model, 3),
      );
    }, 240_000);
    it("the active path's next model input is a plain thread's of the same turns, byte for byte " +
      'through the real Anthropic and OpenAI request builders', async () => {
      await runModel(
        name,
        { numRuns: RUNS[name].input, maxCommands: 20, modelInput: true },
        async (real, model) => {
          for (const c of model.conversations()) await checkModelInput(real, model, c.id);
        },
      );
    }, 240_000);
  });
}
