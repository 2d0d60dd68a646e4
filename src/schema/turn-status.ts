import type { ZodType } from 'zod';
import * as z from 'zod/mini';
import { classicView } from './classic-view.js';
import { listingEvery } from './listing-every.js';

/**
 * Where a turn is: `running` while its writer works on it (its rows so far are stored, more may
 * come), then `completed`, `failed` (a provider error ended it), `cancelled` (stopped on
 * purpose) or `interrupted` (its writer died and the turn was closed by recovery). A turn
 * stored by `appendTurn` without a status, or before the store's migration `0002`, is
 * `completed`.
 *
 * @example
 * ```ts
 * const done = (status: TurnStatus) => status !== 'running';
 * ```
 */
export type TurnStatus = 'running' | 'completed' | 'failed' | 'cancelled' | 'interrupted';

const turnStatuses = listingEvery<TurnStatus>()([
  'running',
  'completed',
  'failed',
  'cancelled',
  'interrupted',
]);

/** Every {@link TurnStatus}, in the order a turn may go through them. */
export const TURN_STATUSES: readonly TurnStatus[] = turnStatuses;

/** The `zod/mini` schema of a {@link TurnStatus}. */
export const turnStatusMini: z.ZodMiniType<TurnStatus> = z.enum(turnStatuses);

/** The schema of a {@link TurnStatus}. */
export const TurnStatusSchema: ZodType<TurnStatus> = /* @__PURE__ */ classicView(turnStatusMini);
