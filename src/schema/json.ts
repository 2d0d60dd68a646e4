import type { ZodType } from 'zod';
import * as z from 'zod/mini';
import { classicView } from './classic-view.js';

/** A JSON value: what survives `JSON.parse(JSON.stringify(v))` unchanged. */
export type JSONValue = null | string | number | boolean | JSONArray | JSONObject;
/** A JSON array. */
export type JSONArray = JSONValue[];
/** A JSON object. Keys with `undefined` values are not allowed: they would not survive JSON. */
export type JSONObject = { [key: string]: JSONValue };

/**
 * Provider-specific metadata as the AI SDK carries it (`providerMetadata` on stream parts,
 * `providerOptions` on prompt parts): one JSON object per provider key, for example
 * `{ anthropic: { signature: '…' } }`.
 */
export type ProviderMetadata = { [provider: string]: JSONObject };

/**
 * Where a value is not plain JSON, and why: what {@link findNonJson} answers.
 *
 * @example
 * ```ts
 * const report: NonJsonReport | undefined = findNonJson({ totals: [1, Number.NaN] });
 * // { path: ['totals', 1], value: NaN, reason: 'a non-finite number' }
 * ```
 */
export interface NonJsonReport {
  /** The keys and indexes from the checked value down to the offending one. */
  readonly path: Array<string | number>;
  /** The offending value (a description of it where it cannot be shown: a cycle, `undefined`). */
  readonly value: unknown;
  /** Why it is not JSON, for example `an instance of Date` or `a non-finite number`. */
  readonly reason: string;
}

/**
 * A quick yes for the common case (stored rows, drafts): plain JSON all the way down, checked
 * without the path bookkeeping of {@link findNonJson}. Anything unusual, very deep or cyclic
 * answers false and is left to the precise walk, so it never says yes where that says no.
 */
function isPlainJsonFast(v: unknown, depth: number): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v);
    case 'object': {
      if (v === null) return true;
      if (depth > 64) return false;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (!isPlainJsonFast(v[i], depth + 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key of Object.keys(v)) {
        if (!isPlainJsonFast((v as Record<string, unknown>)[key], depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/**
 * Finds the first value inside `value` that is not plain JSON, depth first.
 *
 * @param value - the value to check
 * @returns where the first offending value is and why, or undefined when all of it is JSON
 *
 * @example
 * ```ts
 * findNonJson({ a: [1, new Date(0)] }); // { path: ['a', 1], value: '1970-…', reason: 'an instance of Date' }
 * ```
 */
export function findNonJson(value: unknown): NonJsonReport | undefined {
  if (isPlainJsonFast(value, 0)) return undefined;
  const path: Array<string | number> = [];
  const seen = new Set<object>();
  const visit = (v: unknown): NonJsonReport | undefined => {
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return undefined;
      case 'number':
        return Number.isFinite(v)
          ? undefined
          : { path: [...path], value: v, reason: 'a non-finite number' };
      case 'object': {
        if (v === null) return undefined;
        if (seen.has(v))
          return { path: [...path], value: '[circular]', reason: 'a circular reference' };
        if (Array.isArray(v)) {
          seen.add(v);
          for (let i = 0; i < v.length; i++) {
            path.push(i);
            const bad = visit(v[i]);
            path.pop();
            if (bad) return bad;
          }
          seen.delete(v);
          return undefined;
        }
        const proto = Object.getPrototypeOf(v);
        if (proto !== Object.prototype && proto !== null) {
          return {
            path: [...path],
            value: v,
            reason: `an instance of ${proto?.constructor?.name ?? 'a class'}`,
          };
        }
        seen.add(v);
        for (const key of Object.keys(v)) {
          path.push(key);
          const bad = visit((v as Record<string, unknown>)[key]);
          path.pop();
          if (bad) return bad;
        }
        seen.delete(v);
        return undefined;
      }
      default:
        return {
          path: [...path],
          value: typeof v === 'undefined' ? 'undefined' : String(v),
          reason: `a ${typeof v}`,
        };
    }
  };
  return visit(value);
}

/**
 * Whether `value` is plain JSON (see {@link JSONValue}).
 *
 * @param value - the value to check
 * @returns true when it survives `JSON.parse(JSON.stringify(value))` unchanged
 *
 * @example
 * ```ts
 * isJsonValue({ a: [1, 'x', null] }); // true
 * isJsonValue({ a: undefined }); // false
 * ```
 */
export function isJsonValue(value: unknown): value is JSONValue {
  return findNonJson(value) === undefined;
}

/**
 * Converts any value to JSON the way `JSON.stringify` would (dates become strings, `undefined`
 * object members are dropped, `undefined` array items become null), without throwing on cycles
 * or bigints: those become the string `'[circular]'` and a decimal string.
 *
 * @param value - anything, for example a tool's output
 * @returns a plain JSON value; `undefined` becomes `null`
 *
 * @example
 * ```ts
 * toJsonValue({ at: new Date(0), n: 1n, skip: undefined }); // { at: '1970-01-01T00:00:00.000Z', n: '1' }
 * ```
 */
export function toJsonValue(value: unknown): JSONValue {
  if (isJsonValue(value)) return value;
  const seen = new WeakSet<object>();
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'object' && v !== null) {
      if (seen.has(v)) return '[circular]';
      seen.add(v);
      if (v instanceof Error) return { name: v.name, message: v.message };
      if (v instanceof Uint8Array) return Array.from(v);
    }
    return v;
  });
  return text === undefined ? null : (JSON.parse(text) as JSONValue);
}

/** The `zod/mini` schema of a {@link JSONValue}; a failure names the path of the first non-JSON value. */
export const jsonValueMini: z.ZodMiniType<JSONValue> = z.unknown().check((ctx) => {
  const bad = findNonJson(ctx.value);
  if (bad) {
    ctx.issues.push({
      code: 'custom',
      message: `expected a JSON value, received ${bad.reason}`,
      input: bad.value,
      path: bad.path,
    });
  }
}) as unknown as z.ZodMiniType<JSONValue>;

/** The `zod/mini` schema of a {@link JSONObject}. */
export const jsonObjectMini: z.ZodMiniType<JSONObject> = z.record(z.string(), jsonValueMini);

/** The `zod/mini` schema of {@link ProviderMetadata}. */
export const providerMetadataMini: z.ZodMiniType<ProviderMetadata> = z.record(
  z.string(),
  jsonObjectMini,
);

/** Zod schema of a {@link JSONValue}; a failure names the path of the first non-JSON value. */
export const JsonValueSchema: ZodType<JSONValue> = /* @__PURE__ */ classicView(jsonValueMini);

/** Zod schema of a {@link JSONObject}. */
export const JsonObjectSchema: ZodType<JSONObject> = /* @__PURE__ */ classicView(jsonObjectMini);

/** Zod schema of {@link ProviderMetadata}. */
export const ProviderMetadataSchema: ZodType<ProviderMetadata> =
  /* @__PURE__ */ classicView(providerMetadataMini);
