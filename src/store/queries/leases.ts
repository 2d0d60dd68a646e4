import type { Kysely } from 'kysely';
import { ChunklogError } from '../../errors/chunklog-error.js';
import { readOptions } from '../../errors/invalid-option.js';
import { asString, isoOf } from '../codec.js';
import type { StoreContext } from '../context.js';
import { wrapStoreErrors } from '../store-errors.js';
import type { StoreTables } from '../tables.js';
import { writeTransaction } from '../transaction.js';
import type { AcquireLeaseResult, Lease, LeaseFence, LeaseOptions } from '../turn-types.js';
import { checkThreadId } from '../validate.js';

/** The longest lease: a day. */
const MAX_TTL_MS = 86_400_000;

/** A lease holder id: 1 to 255 characters. */
function checkHolder(holder: unknown, option: string): string {
  if (typeof holder !== 'string' || holder.length === 0 || holder.length > 255) {
    throw new ChunklogError(
      'invalid-option',
      `${option} must be a lease holder id of 1 to 255 characters.`,
      { option, value: holder },
    );
  }
  return holder;
}

/**
 * Checks a `fence` option.
 *
 * @throws {ChunklogError} `invalid-option` (option `fence`)
 */
export function checkFenceOption(value: unknown): LeaseFence | undefined {
  if (value === undefined) return undefined;
  const fence = value as Partial<LeaseFence> | null;
  if (
    typeof fence !== 'object' ||
    fence === null ||
    !Number.isSafeInteger(fence.token) ||
    (fence.token as number) < 1
  ) {
    throw new ChunklogError(
      'invalid-option',
      '`fence` must be a lease ({ holder, token }) from acquireLease.',
      { option: 'fence', value },
    );
  }
  return { holder: checkHolder(fence.holder, 'fence.holder'), token: fence.token as number };
}

function checkTtl(options: unknown, where: string): number {
  const o = readOptions(options, where, ['ttlMs']);
  const ttl = o.ttlMs;
  if (typeof ttl !== 'number' || !Number.isSafeInteger(ttl) || ttl < 1 || ttl > MAX_TTL_MS) {
    throw new ChunklogError(
      'invalid-option',
      `${where}: \`ttlMs\` must be an integer from 1 to ${MAX_TTL_MS}.`,
      { option: 'ttlMs', value: ttl },
    );
  }
  return ttl;
}

interface SelectedLease {
  readonly thread_id: unknown;
  readonly holder: unknown;
  readonly expires_at: unknown;
  readonly token: unknown;
}

function toLease(record: SelectedLease): Lease {
  const expiresAtMs = Number(record.expires_at);
  return {
    threadId: asString(record.thread_id),
    holder: asString(record.holder),
    token: Number(record.token),
    expiresAtMs,
    expiresAt: isoOf(expiresAtMs),
  };
}

async function selectLease(
  ctx: StoreContext,
  db: Kysely<StoreTables>,
  threadId: string,
  lock: boolean,
): Promise<SelectedLease | undefined> {
  return await db
    .selectFrom('leases')
    .select(['thread_id', 'holder', 'expires_at', 'token'])
    .where('thread_id', '=', threadId)
    .$if(lock && ctx.adapter.selectForUpdate, (qb) => qb.forUpdate())
    .executeTakeFirst();
}

/**
 * Inside a write transaction: refuses the write (`lease-lost`) unless the thread's lease has the
 * fence's holder and token and has not expired. The lease row is locked (where the dialect locks
 * rows) so that a takeover waits for this transaction, and a write that passed the check commits
 * before the new holder's first read.
 *
 * @throws {ChunklogError} `lease-lost`
 */
export async function requireFence(
  ctx: StoreContext,
  trx: Kysely<StoreTables>,
  threadId: string,
  fence: LeaseFence,
  now: number,
): Promise<void> {
  const row = await selectLease(ctx, trx, threadId, true);
  const lease = row === undefined ? undefined : toLease(row);
  if (lease?.holder === fence.holder && lease.token === fence.token && lease.expiresAtMs > now) {
    return;
  }
  const why =
    lease === undefined
      ? 'no lease was ever taken on it'
      : lease.token !== fence.token || lease.holder !== fence.holder
        ? `the lease is now ${JSON.stringify(lease.holder)}'s (token ${lease.token})`
        : 'the lease expired';
  throw new ChunklogError(
    'lease-lost',
    `The write to thread ${JSON.stringify(threadId)} by ${JSON.stringify(fence.holder)} (token ${fence.token}) was refused: ${why}. Nothing was written.`,
    { threadId, value: lease ?? null },
  );
}

/** `ChunkStore.acquireLease`: see there. */
export function acquireLease(
  ctx: StoreContext,
  threadId: string,
  holder: string,
  options: LeaseOptions,
): Promise<AcquireLeaseResult> {
  checkThreadId(threadId);
  checkHolder(holder, 'holder');
  const ttl = checkTtl(options, 'acquireLease');
  const table = 'leases';
  return wrapStoreErrors('acquireLease', threadId, () =>
    writeTransaction(
      ctx,
      async (trx): Promise<AcquireLeaseResult> => {
        const now = ctx.now();
        const expires = now + ttl;
        let row = await selectLease(ctx, trx, threadId, true);
        if (row === undefined) {
          const insert = trx
            .insertInto(table)
            .values({ thread_id: threadId, holder, expires_at: expires, token: 1 });
          await (ctx.adapter.insertIgnore === 'on-conflict-do-nothing'
            ? insert.onConflict((oc) => oc.column('thread_id').doNothing())
            : insert.onDuplicateKeyUpdate((eb) => ({ thread_id: eb.ref('thread_id') }))
          ).execute();
          // Whoever's insert landed holds it (drivers differ in the counts they report).
          row = await selectLease(ctx, trx, threadId, true);
          if (row === undefined) throw new Error('the lease row vanished while it was created');
          const stored = toLease(row);
          if (stored.holder === holder && stored.token === 1 && stored.expiresAtMs === expires) {
            return { acquired: true, lease: stored, tookOver: false };
          }
        }
        const current = toLease(row);
        const live = current.expiresAtMs > now;
        if (live && current.holder !== holder)
          return { acquired: false, lease: current, tookOver: false };
        // Renewed by its holder, or taken: a new holder (or the same one after expiry) gets a new token.
        const token = live ? current.token : current.token + 1;
        await trx
          .updateTable(table)
          .set({ holder, expires_at: expires, token })
          .where('thread_id', '=', threadId)
          .execute();
        const lease = toLease({ thread_id: threadId, holder, expires_at: expires, token });
        return { acquired: true, lease, tookOver: !live && current.expiresAtMs !== 0 };
      },
      { what: 'acquireLease', threadId },
    ),
  );
}

/** `ChunkStore.renewLease`: see there. */
export function renewLease(
  ctx: StoreContext,
  threadId: string,
  fence: LeaseFence,
  options: LeaseOptions,
): Promise<boolean> {
  checkThreadId(threadId);
  const checked = checkFenceOption(fence) as LeaseFence;
  const ttl = checkTtl(options, 'renewLease');
  return updateHeld(ctx, 'renewLease', threadId, checked, (now) => now + ttl);
}

/** `ChunkStore.releaseLease`: see there. */
export function releaseLease(
  ctx: StoreContext,
  threadId: string,
  fence: LeaseFence,
): Promise<boolean> {
  checkThreadId(threadId);
  const checked = checkFenceOption(fence) as LeaseFence;
  return updateHeld(ctx, 'releaseLease', threadId, checked, () => 0);
}

/** Sets a held lease's expiry; false when the fence no longer holds it. */
function updateHeld(
  ctx: StoreContext,
  what: string,
  threadId: string,
  fence: LeaseFence,
  expiry: (now: number) => number,
): Promise<boolean> {
  return wrapStoreErrors(what, threadId, () =>
    writeTransaction(
      ctx,
      async (trx) => {
        const now = ctx.now();
        const row = await selectLease(ctx, trx, threadId, true);
        if (row === undefined) return false;
        const lease = toLease(row);
        if (lease.holder !== fence.holder || lease.token !== fence.token) return false;
        if (lease.expiresAtMs <= now) return false;
        await trx
          .updateTable('leases')
          .set({ expires_at: expiry(now) })
          .where('thread_id', '=', threadId)
          .execute();
        return true;
      },
      { what, threadId },
    ),
  );
}

/** `ChunkStore.getLease`: see there. */
export function getLease(ctx: StoreContext, threadId: string): Promise<Lease | null> {
  checkThreadId(threadId);
  return wrapStoreErrors('getLease', threadId, async () => {
    const row = await selectLease(ctx, ctx.db, threadId, false);
    return row === undefined ? null : toLease(row);
  });
}
