import type { ProviderMetadata as AiProviderMetadata } from 'ai';
import type { JSONObject, JSONValue, ProviderMetadata } from '../schema/json.js';
import { toJsonValue } from '../schema/json.js';

/**
 * Whether `value` is JSON made only of plain objects and arrays, so that
 * `JSON.parse(JSON.stringify(value))` gives back an identical structure (a null-prototype
 * object, though JSON-safe, comes back with a prototype).
 */
function isPlainJson(value: unknown, depth = 0): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (depth > 200) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          if (!(i in value) || !isPlainJson(value[i], depth + 1)) return false;
        }
        return true;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      for (const key of Object.keys(value)) {
        if (!isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/**
 * Converts any value (a tool's input or output, an error) to plain JSON: the value itself when
 * it already is, otherwise what `JSON.stringify` would make of it (see `toJsonValue`: cycles and
 * bigints do not throw).
 *
 * @param value - anything
 * @returns plain JSON that survives `JSON.parse(JSON.stringify(v))` identically
 */
export function plainJson(value: unknown): JSONValue {
  if (isPlainJson(value)) return value as JSONValue;
  const json = toJsonValue(value);
  return isPlainJson(json) ? json : (JSON.parse(JSON.stringify(json)) as JSONValue);
}

/**
 * Converts the AI SDK's provider metadata (whose objects may hold `undefined` members) to plain
 * JSON, or `undefined` when there is none.
 *
 * @param metadata - `providerMetadata` from a stream part
 * @returns JSON-safe metadata, or undefined when absent or empty
 */
export function jsonMetadata(
  metadata: AiProviderMetadata | undefined,
): ProviderMetadata | undefined {
  if (metadata == null) return undefined;
  const value = plainJson(metadata);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const out: Record<string, JSONObject> = {};
  let any = false;
  for (const [provider, entry] of Object.entries(value)) {
    if (entry !== null && typeof entry === 'object' && !Array.isArray(entry)) {
      // defineProperty: plain assignment would treat a `__proto__` key as the prototype setter.
      Object.defineProperty(out, provider, {
        value: entry,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      any = true;
    }
  }
  return any ? out : undefined;
}
