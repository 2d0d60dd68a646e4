import type { ZodType } from 'zod';
import * as z from 'zod/mini';
import { classicView } from './classic-view.js';

/**
 * How many secrets of each kind a redaction replaced: `{ email: 2, 'api-key': 1 }`. The kinds of
 * the ready redactor are its pattern kinds (`api-key`, `bearer-token`, `email`, `card-number`); a
 * custom pattern brings its own. Never the secrets themselves.
 */
export type RedactionCounts = Readonly<Record<string, number>>;

/**
 * What a `redacted` system chunk records: what redaction replaced in the turn (or, from a store's
 * `redact` hook, in the rows of one write), by kind. The secrets are not recorded anywhere.
 *
 * @example
 * ```ts
 * const redaction: Redaction = { counts: { email: 2, 'api-key': 1 } };
 * ```
 */
export interface Redaction {
  /** How many secrets of each kind were replaced (each count at least 1). */
  readonly counts: RedactionCounts;
}

/** The `zod/mini` schema of a {@link Redaction}. */
export const redactionMini: z.ZodMiniType<Redaction> = z.object({
  counts: z.record(z.string(), z.number().check(z.int(), z.positive())),
});

/** Zod schema of a {@link Redaction}. */
export const RedactionSchema: ZodType<Redaction> = /* @__PURE__ */ classicView(redactionMini);
