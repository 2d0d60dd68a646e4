import { z } from 'zod';
import { ChunklogError } from '../../errors/chunklog-error.js';
import { readOptions } from '../../errors/invalid-option.js';
import {
  sumUsage,
  TOKEN_USAGE_KEYS,
  type TokenUsage,
  TokenUsageSchema,
} from '../../schema/usage.js';
import { asString } from '../codec.js';
import type { StoreContext } from '../context.js';
import { isExactStepUsage } from '../exact-step-usage.js';
import { USAGE_READ_COLUMNS } from '../statements.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import type { UsageRecord } from '../tables.js';
import { selectThread } from '../threads.js';
import { writeTransaction } from '../transaction.js';
import type {
  PriceFunction,
  StepUsage,
  ThreadUsage,
  TurnUsage,
  UsageReadOptions,
} from '../usage-types.js';
import { checkThreadId, checkTurnId } from '../validate.js';
import { pathTurnRows, readOrigin } from './path-rows.js';

const COLUMN_OF = {
  inputTokens: 'input_tokens',
  outputTokens: 'output_tokens',
  totalTokens: 'total_tokens',
  reasoningTokens: 'reasoning_tokens',
  cacheReadTokens: 'cache_read_tokens',
  cacheWriteTokens: 'cache_write_tokens',
} as const satisfies Record<keyof TokenUsage, keyof UsageRecord>;

const count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
/** The schema of a step usage (what `isExactStepUsage` checks by hand, faster). Internal. */
export const StepUsageSchema: z.ZodType<StepUsage> = z.strictObject({
  step: count,
  modelId: z.string().max(1000).optional(),
  finishReason: z.string().max(64).optional(),
  usage: TokenUsageSchema.pipe(z.record(z.string(), count.optional())),
  durationMs: count.optional(),
});

/**
 * Checks step usages (`recordUsage`'s `steps`, a write's `usage` option).
 *
 * @param steps - the untrusted steps
 * @param option - the option's name, for the error
 * @throws {ChunklogError} `invalid-option` naming the step
 */
export function checkSteps(steps: unknown, option = 'steps'): StepUsage[] {
  if (!Array.isArray(steps)) {
    throw new ChunklogError('invalid-option', `${option} must be an array of step usages.`, {
      option,
      value: steps,
    });
  }
  return steps.map((step, i) => {
    if (isExactStepUsage(step)) return step;
    const result = StepUsageSchema.safeParse(step);
    if (!result.success) {
      throw new ChunklogError(
        'invalid-option',
        `${option}[${i}] is not a step usage: ${result.error.issues[0]?.message ?? 'invalid'}.`,
        { option: `${option}[${i}]`, value: step, cause: result.error },
      );
    }
    return step as StepUsage;
  });
}

function checkPrice(
  options: UsageReadOptions | undefined,
  what: string,
): PriceFunction | undefined {
  const o = readOptions(options, what, ['price']);
  if (o.price !== undefined && typeof o.price !== 'function') {
    throw new ChunklogError(
      'invalid-option',
      'price must be a function (modelId, usage) => cost.',
      {
        option: 'price',
        value: o.price,
      },
    );
  }
  return o.price as PriceFunction | undefined;
}

/**
 * `ChunkStore.recordUsage`: one row per step, in one transaction; steps already recorded for the
 * turn are kept as they are (a retry is safe).
 */
export function recordUsage(
  ctx: StoreContext,
  threadId: string,
  turnId: string,
  steps: readonly StepUsage[],
): Promise<void> {
  checkThreadId(threadId);
  checkTurnId(turnId);
  const checked = checkSteps(steps);
  if (checked.length === 0) return Promise.resolve();
  const values = usageRecords(threadId, turnId, checked, ctx.now());
  return wrapStoreErrors('recordUsage', threadId, () =>
    writeTransaction(
      ctx,
      async (trx) => {
        if ((await selectThread(ctx, trx, threadId, false)) === undefined) {
          throw threadNotFound(threadId);
        }
        await ctx.statements.insertUsage(trx, values);
      },
      { what: 'recordUsage', threadId },
    ),
  );
}

/** The usage table's rows of a turn's checked steps. */
export function usageRecords(
  threadId: string,
  turnId: string,
  checked: readonly StepUsage[],
  now: number,
): UsageRecord[] {
  return checked.map((s) => ({
    thread_id: threadId,
    turn_id: turnId,
    step: s.step,
    model_id: s.modelId ?? null,
    finish_reason: s.finishReason ?? null,
    input_tokens: s.usage.inputTokens ?? null,
    output_tokens: s.usage.outputTokens ?? null,
    reasoning_tokens: s.usage.reasoningTokens ?? null,
    cache_read_tokens: s.usage.cacheReadTokens ?? null,
    cache_write_tokens: s.usage.cacheWriteTokens ?? null,
    total_tokens: s.usage.totalTokens ?? null,
    duration_ms: s.durationMs ?? null,
    created_at: now,
  }));
}

const num = (value: unknown): number | undefined =>
  value === null || value === undefined ? undefined : Number(value);

function toStepUsage(record: Record<string, unknown>): StepUsage {
  const usage: { -readonly [K in keyof TokenUsage]: number } = {};
  for (const key of TOKEN_USAGE_KEYS) {
    const value = num(record[COLUMN_OF[key]]);
    if (value !== undefined) usage[key] = value;
  }
  const step: { -readonly [K in keyof StepUsage]: StepUsage[K] } = {
    step: Number(record.step),
    usage,
  };
  if (record.model_id !== null) step.modelId = asString(record.model_id);
  if (record.finish_reason !== null) step.finishReason = asString(record.finish_reason);
  const duration = num(record.duration_ms);
  if (duration !== undefined) step.durationMs = duration;
  return step;
}

function costOf(steps: readonly StepUsage[], price: PriceFunction | undefined): number | undefined {
  if (price === undefined) return undefined;
  let cost = 0;
  for (const s of steps) cost += price(s.modelId, s.usage);
  return cost;
}

/**
 * `ChunkStore.getTurnUsage`: a turn's steps (on the usage primary key), or null. A turn of a
 * fork's shared stretch is read from the thread that holds it.
 */
export function getTurnUsage(
  ctx: StoreContext,
  threadId: string,
  turnId: string,
  options?: UsageReadOptions,
): Promise<TurnUsage | null> {
  checkThreadId(threadId);
  checkTurnId(turnId);
  const price = checkPrice(options, 'getTurnUsage');
  return wrapStoreErrors('getTurnUsage', threadId, async () => {
    let records = await turnUsageRows(ctx, threadId, turnId);
    if (records.length === 0) {
      const thread = await readOrigin(ctx, ctx.db, threadId);
      const shared = await pathTurnRows(ctx, ctx.db, thread?.origin.ancestors ?? [], turnId);
      if (shared === undefined) return null;
      records = await turnUsageRows(ctx, shared.segment.threadId, turnId);
    }
    if (records.length === 0) return null;
    const steps = records.map((r) => toStepUsage(r));
    const cost = costOf(steps, price);
    return {
      turnId,
      steps,
      total: sumUsage(steps.map((s) => s.usage)),
      ...(cost === undefined ? {} : { cost }),
    };
  });
}

function turnUsageRows(ctx: StoreContext, threadId: string, turnId: string) {
  return ctx.db
    .selectFrom('usage')
    .select(USAGE_READ_COLUMNS)
    .where('thread_id', '=', threadId)
    .where('turn_id', '=', turnId)
    .orderBy('step')
    .execute();
}

/**
 * `ChunkStore.getThreadUsage`: every step recorded on the thread, totalled. A fork counts its own
 * steps only, not those of the turns it shares with its parent (notes/0088), so that the usage of
 * all threads sums to what was used.
 */
export function getThreadUsage(
  ctx: StoreContext,
  threadId: string,
  options?: UsageReadOptions,
): Promise<ThreadUsage> {
  checkThreadId(threadId);
  const price = checkPrice(options, 'getThreadUsage');
  return wrapStoreErrors('getThreadUsage', threadId, async () => {
    if ((await selectThread(ctx, ctx.db, threadId, false)) === undefined) {
      throw threadNotFound(threadId);
    }
    const records = await ctx.db
      .selectFrom('usage')
      .select(USAGE_READ_COLUMNS)
      .where('thread_id', '=', threadId)
      .execute();
    const steps = records.map((r) => toStepUsage(r));
    const turns = new Set(records.map((r) => asString(r.turn_id))).size;
    const cost = costOf(steps, price);
    return {
      turns,
      steps: steps.length,
      total: sumUsage(steps.map((s) => s.usage)),
      ...(cost === undefined ? {} : { cost }),
    };
  });
}
