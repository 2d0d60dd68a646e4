import type { JSONObject, ProviderMetadata } from '../schema/json.js';

/**
 * Merges provider metadata, later values winning key by key within each provider key, as a
 * block's metadata merges across its start, deltas and end.
 *
 * @param first - the earlier metadata
 * @param second - the later metadata
 * @returns the merged metadata; `first` itself when `second` changes nothing
 *
 * @example
 * ```ts
 * mergeProviderMetadata({ openai: { itemId: 'rs_1', enc: 'A' } }, { openai: { enc: 'B' } });
 * // { openai: { itemId: 'rs_1', enc: 'B' } }
 * ```
 */
export function mergeProviderMetadata(
  first: ProviderMetadata | undefined,
  second: ProviderMetadata | undefined,
): ProviderMetadata | undefined {
  if (second === undefined) return first;
  if (first === undefined) return second;
  let out: Record<string, JSONObject> | undefined;
  for (const provider of Object.keys(second)) {
    const next = second[provider] as JSONObject;
    const prev = first[provider];
    if (prev !== undefined && changesNothing(prev, next)) continue;
    out ??= { ...first };
    setOwn(out, provider, prev === undefined ? next : { ...prev, ...next });
  }
  return out ?? first;
}

function changesNothing(prev: JSONObject, next: JSONObject): boolean {
  for (const key of Object.keys(next)) {
    if (!Object.hasOwn(prev, key) || prev[key] !== next[key]) return false;
  }
  return true;
}

// Plain assignment would treat a `__proto__` key as the prototype setter.
function setOwn(target: Record<string, JSONObject>, key: string, value: JSONObject): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
