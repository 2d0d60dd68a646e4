import type { Kysely } from 'kysely';
import { invalidOption, readOptions } from '../../errors/invalid-option.js';
import { type BranchAt, branchPoints, type ConversationMember } from '../branch-points.js';
import { asString, storedIso } from '../codec.js';
import type { StoreContext } from '../context.js';
import { type PathSegment, threadOrigin } from '../fork-path.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import type { StoreTables } from '../tables.js';
import { selectThread, THREAD_COLUMNS } from '../threads.js';
import { writeTransaction } from '../transaction.js';
import type { AddAlternativeOptions, Alternatives, ConversationVersion, Thread } from '../types.js';
import { checkThreadId, checkTurnId, compareCodeUnits, newThreadId } from '../validate.js';
import { insertFork } from './fork-thread.js';
import { isSentinelRow } from './sentinel.js';
import { threadExists } from './thread-ops.js';

/** A conversation's row: what it is (an alternative or not) and its active path. */
interface ConversationRow {
  readonly activeId: string;
  readonly alternativeOf: string | undefined;
}

async function conversationRow(
  db: Kysely<StoreTables>,
  threadId: string,
  lock: boolean,
  ctx: StoreContext,
): Promise<ConversationRow> {
  const read = lock ? ctx.statements.lockThread : ctx.statements.conversationOf;
  const row = (await read.execute(db, [threadId])).rows[0];
  if (row === undefined) throw threadNotFound(threadId);
  return {
    activeId: row.active_id === null ? threadId : asString(row.active_id),
    alternativeOf: row.conversation_id === null ? undefined : asString(row.conversation_id),
  };
}

/** Refuses an alternative where its conversation is wanted. */
function refuseAlternative(where: string, threadId: string, row: ConversationRow): void {
  if (row.alternativeOf === undefined) return;
  invalidOption(
    where,
    'conversationId',
    `thread ${JSON.stringify(threadId)} is an alternative of conversation ${JSON.stringify(row.alternativeOf)}; give the conversation's id.`,
    threadId,
  );
}

/** `ChunkStore.activePath`. */
export function activePath(ctx: StoreContext, conversationId: string): Promise<string> {
  checkThreadId(conversationId, 'conversationId');
  return wrapStoreErrors('activePath', conversationId, async () => {
    return (await conversationRow(ctx.db, conversationId, false, ctx)).activeId;
  });
}

/**
 * A conversation and its alternatives, oldest first; those made in the same millisecond by id,
 * in code-unit order (`compareCodeUnits`), sorted here: a database orders ids by its collation
 * (PostgreSQL's `en-US` puts `b` before `B`), so every database lists them alike.
 */
async function readMembers(
  db: Kysely<StoreTables>,
  conversationId: string,
): Promise<ConversationMember[]> {
  const rows = await db
    .selectFrom('threads')
    .select(THREAD_COLUMNS)
    .where((eb) =>
      eb.or([eb('id', '=', conversationId), eb('conversation_id', '=', conversationId)]),
    )
    .execute();
  rows.sort(
    (a, b) =>
      Number(a.created_at) - Number(b.created_at) ||
      compareCodeUnits(asString(a.id), asString(b.id)),
  );
  return rows.map((row) => ({
    id: asString(row.id),
    createdAt: storedIso(row.created_at) ?? new Date(0).toISOString(),
    last: Number(row.next_seq) - 1,
    origin: threadOrigin(row),
  }));
}

/** A row asked for by its thread and seq. */
type RowAt = readonly [threadId: string, seq: number];

const rowKey = (threadId: string, seq: number): string => `${threadId} ${seq}`;

/** The first row of each version of each branch point: row `atSeq + 1` of its holder. */
function branchVersionRows(points: readonly BranchAt[]): RowAt[] {
  return points.flatMap((p) =>
    p.versions.flatMap((v) => (v.holder === undefined ? [] : [[v.holder, p.atSeq + 1] as const])),
  );
}

/** The first own row of each member that has one: row `forkSeq + 1` of itself. */
function memberFirstRows(members: readonly ConversationMember[]): RowAt[] {
  return members.flatMap((m) =>
    m.last > m.origin.forkSeq ? [[m.id, m.origin.forkSeq + 1] as const] : [],
  );
}

/** The turn ids of rows, keyed by `rowKey`: one read for all of them. */
async function turnsOfRows(
  db: Kysely<StoreTables>,
  wanted: readonly RowAt[],
): Promise<Map<string, string>> {
  const unique = [...new Map(wanted.map((at) => [rowKey(...at), at])).values()];
  const turns = new Map<string, string>();
  if (unique.length === 0) return turns;
  const rows = await db
    .selectFrom('chunks')
    .select(['thread_id', 'seq', 'turn_id', 'role'])
    .where((eb) =>
      eb.or(
        unique.map(([thread, seq]) => eb.and([eb('thread_id', '=', thread), eb('seq', '=', seq)])),
      ),
    )
    .execute();
  for (const row of rows) {
    const turnId = asString(row.turn_id);
    // A retention sentinel stands where the turn was: the turn is gone (notes/0121).
    if (isSentinelRow({ seq: Number(row.seq), turnId, role: asString(row.role) })) continue;
    turns.set(rowKey(asString(row.thread_id), Number(row.seq)), turnId);
  }
  return turns;
}

/** Every version of a conversation: its own thread first, then its alternatives, oldest first. */
function conversationVersions(
  members: readonly ConversationMember[],
  conversationId: string,
  turns: ReadonlyMap<string, string>,
): ConversationVersion[] {
  const ordered = [
    ...members.filter((m) => m.id === conversationId),
    ...members.filter((m) => m.id !== conversationId),
  ];
  return ordered.map((m) => ({
    threadId: m.id,
    createdAt: m.createdAt,
    forkOf:
      m.origin.parentId === undefined
        ? undefined
        : { threadId: m.origin.parentId, atSeq: m.origin.forkSeq },
    turnId: turns.get(rowKey(m.id, m.origin.forkSeq + 1)),
    total: m.last,
  }));
}

/** A conversation's active path, branch points and versions, read through `db`. */
async function alternativesOf(
  ctx: StoreContext,
  db: Kysely<StoreTables>,
  conversationId: string,
): Promise<Alternatives> {
  const row = await conversationRow(db, conversationId, false, ctx);
  refuseAlternative('getAlternatives', conversationId, row);
  const members = await readMembers(db, conversationId);
  // An active path deleted since it was made active: the conversation's own path is.
  const active =
    members.find((m) => m.id === row.activeId) ?? members.find((m) => m.id === conversationId);
  if (active === undefined) throw threadNotFound(conversationId);
  const points = branchPoints(members, conversationId, active);
  const turns = await turnsOfRows(db, [...branchVersionRows(points), ...memberFirstRows(members)]);
  return {
    conversationId,
    activePath: active.id,
    branches: points.flatMap((p) => {
      const listed = p.versions.flatMap((v, i) => {
        const turnId =
          v.holder === undefined ? undefined : turns.get(rowKey(v.holder, p.atSeq + 1));
        // A version whose first turn retention removed is listed only while it is the active
        // one (notes/0121): there is nothing left of it to switch to at this point.
        const gone = v.holder !== undefined && turnId === undefined;
        if (gone && i !== p.active) return [];
        return [{ version: { threadId: v.threadId, turnId, createdAt: v.createdAt }, i }];
      });
      if (listed.length < 2) return [];
      return [
        {
          atSeq: p.atSeq,
          active: listed.findIndex((l) => l.i === p.active),
          alternatives: listed.map((l) => l.version),
        },
      ];
    }),
    versions: conversationVersions(members, conversationId, turns),
  };
}

/** `ChunkStore.getAlternatives`. */
export function getAlternatives(ctx: StoreContext, conversationId: string): Promise<Alternatives> {
  checkThreadId(conversationId, 'conversationId');
  return wrapStoreErrors('getAlternatives', conversationId, () =>
    alternativesOf(ctx, ctx.db, conversationId),
  );
}

/** The seq of the first row of turn `turnId` on a path, or undefined when it is not there. */
async function turnStart(
  db: Kysely<StoreTables>,
  path: readonly PathSegment[],
  turnId: string,
): Promise<number | undefined> {
  for (const s of path) {
    const row = await db
      .selectFrom('chunks')
      .select((eb) => eb.fn.min('seq').as('first'))
      .where('thread_id', '=', s.threadId)
      .where('turn_id', '=', turnId)
      .where('seq', '>', s.after)
      .where('seq', '<=', s.upTo)
      .executeTakeFirst();
    if (row?.first !== null && row?.first !== undefined) return Number(row.first);
  }
  return undefined;
}

/**
 * `ChunkStore.addAlternative`: under the conversation's lock, a fork of its active path at the
 * boundary before turn `turnId`, recorded as the conversation's, made its active path.
 */
export function addAlternative(
  ctx: StoreContext,
  conversationId: string,
  options: AddAlternativeOptions,
): Promise<Thread> {
  checkThreadId(conversationId, 'conversationId');
  const o = readOptions(options, 'addAlternative', ['turnId', 'newThreadId']);
  const turnId = checkTurnId(o.turnId);
  const newId = newThreadId(o.newThreadId, 'newThreadId');
  return wrapStoreErrors('addAlternative', conversationId, () =>
    writeTransaction(
      ctx,
      async (trx) => {
        const row = await conversationRow(trx, conversationId, true, ctx);
        refuseAlternative('addAlternative', conversationId, row);
        const leaf =
          (await selectThread(ctx, trx, row.activeId, true)) ??
          (await selectThread(ctx, trx, conversationId, true));
        if (leaf === undefined) throw threadNotFound(conversationId);
        if ((await selectThread(ctx, trx, newId, true)) !== undefined) throw threadExists(newId);
        const leafId = asString(leaf.id);
        const origin = threadOrigin(leaf);
        const last = Number(leaf.next_seq) - 1;
        const own: PathSegment[] =
          last > origin.forkSeq ? [{ threadId: leafId, after: origin.forkSeq, upTo: last }] : [];
        const first = await turnStart(trx, [...own, ...origin.ancestors], turnId);
        if (first === undefined) {
          invalidOption(
            'addAlternative',
            'turnId',
            `turn ${JSON.stringify(turnId)} is not on the active path of conversation ${JSON.stringify(conversationId)}.`,
            turnId,
          );
        }
        const made = await insertFork(ctx, trx, leaf, first - 1, {
          id: newId,
          metadata: undefined,
          conversationId,
        });
        await setActive(ctx, trx, conversationId, newId);
        return made;
      },
      { what: 'addAlternative', threadId: conversationId },
    ),
  );
}

async function setActive(
  ctx: StoreContext,
  trx: Kysely<StoreTables>,
  conversationId: string,
  activeId: string,
): Promise<void> {
  await trx
    .updateTable('threads')
    .set({ active_id: activeId === conversationId ? null : activeId, updated_at: ctx.now() })
    .where('id', '=', conversationId)
    .execute();
}

/** `ChunkStore.switchAlternative`: under the conversation's lock. */
export function switchAlternative(
  ctx: StoreContext,
  conversationId: string,
  threadId: string,
): Promise<Alternatives> {
  checkThreadId(conversationId, 'conversationId');
  checkThreadId(threadId);
  return wrapStoreErrors('switchAlternative', conversationId, () =>
    writeTransaction(
      ctx,
      async (trx) => {
        const row = await conversationRow(trx, conversationId, true, ctx);
        refuseAlternative('switchAlternative', conversationId, row);
        if (threadId !== conversationId) {
          const target = await trx
            .selectFrom('threads')
            .select('conversation_id')
            .where('id', '=', threadId)
            .executeTakeFirst();
          if (target === undefined) throw threadNotFound(threadId);
          if (
            target.conversation_id === null ||
            asString(target.conversation_id) !== conversationId
          ) {
            invalidOption(
              'switchAlternative',
              'threadId',
              `thread ${JSON.stringify(threadId)} is not an alternative of conversation ${JSON.stringify(conversationId)}.`,
              threadId,
            );
          }
        }
        await setActive(ctx, trx, conversationId, threadId);
        return await alternativesOf(ctx, trx, conversationId);
      },
      { what: 'switchAlternative', threadId: conversationId },
    ),
  );
}
