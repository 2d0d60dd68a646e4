import type { ZodType } from 'zod';
import * as z from 'zod/mini';
import { classicView } from './classic-view.js';
import { findNonJson, MAX_JSON_DEPTH, TOO_DEEP } from './find-non-json.js';

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
 * object members are dropped, `undefined` array items become null), without throwing on cycles,
 * bigints or depth: a cycle becomes the string `'[circular]'`, a bigint a decimal string, and an
 * array or object nested deeper than {@link MAX_JSON_DEPTH} the string `'[too deep]'`.
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
  // How deep each array and object written sits (the holder of the root is at 0).
  const depths = new WeakMap<object, number>();
  const text = JSON.stringify(value, function replace(this: object, _key, v: unknown) {
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'object' && v !== null) {
      if (seen.has(v)) return '[circular]';
      seen.add(v);
      const depth = (depths.get(this) ?? 0) + 1;
      if (depth > MAX_JSON_DEPTH) return TOO_DEEP;
      let out: object = v;
      if (v instanceof Error) out = { name: v.name, message: v.message };
      else if (v instanceof Uint8Array) out = Array.from(v);
      depths.set(out, depth);
      return out;
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
