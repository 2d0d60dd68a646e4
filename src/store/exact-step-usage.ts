// A hand-checked fast path for a step usage (a write's `usage` option), beside the zod schema that
// defines it (`StepUsageSchema` in queries/usage.ts): `true` only for what that schema accepts
// unchanged; `false` is no verdict, and the schema decides and words the error. A turn's write
// checks a few of these on every call, where zod's walk costs more than the check.
import { TOKEN_USAGE_KEYS } from '../schema/usage.js';
import type { StepUsage } from './usage-types.js';

const hasOwn = Object.prototype.hasOwnProperty;

/** The keys of a step usage, each with the check of its value. */
const STEP_FIELDS: Readonly<Record<string, (value: unknown) => boolean>> = {
  step: isCount,
  modelId: (v) => v === undefined || (typeof v === 'string' && v.length <= 1000),
  finishReason: (v) => v === undefined || (typeof v === 'string' && v.length <= 64),
  usage: isTokenCounts,
  durationMs: (v) => v === undefined || isCount(v),
};

/** The token counts a step's `usage` may hold (any other key is left to the schema). */
const TOKEN_KEYS: ReadonlySet<string> = new Set(TOKEN_USAGE_KEYS);

/** A whole number from 0 to `Number.MAX_SAFE_INTEGER`. */
function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** An object made by a literal or `JSON.parse` (any other kind is left to the schema). */
function isPlain(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
  );
}

/** Token counts: each known key absent, undefined or a count. */
function isTokenCounts(value: unknown): boolean {
  if (!isPlain(value)) return false;
  for (const key in value) {
    if (!hasOwn.call(value, key) || !TOKEN_KEYS.has(key)) return false;
    const count = value[key];
    if (count !== undefined && !isCount(count)) return false;
  }
  return true;
}

/**
 * Whether `value` is a step usage the schema accepts as it is, checked by hand: `step` and
 * `usage` present, no other key than the schema's, every value in range.
 *
 * @param value - an untrusted step usage
 * @returns true when it is one; false when the schema must decide
 */
export function isExactStepUsage(value: unknown): value is StepUsage {
  if (!isPlain(value) || !hasOwn.call(value, 'step') || !hasOwn.call(value, 'usage')) {
    return false;
  }
  for (const key in value) {
    if (!hasOwn.call(value, key) || !hasOwn.call(STEP_FIELDS, key)) return false;
    if (!(STEP_FIELDS[key] as (v: unknown) => boolean)(value[key])) return false;
  }
  return true;
}
