import type { ProviderMetadata as AiProviderMetadata } from 'ai';
import {
  isJsonValue,
  type JSONObject,
  type ProviderMetadata,
  toJsonValue,
} from '../schema/json.js';

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
  const value = isJsonValue(metadata) ? metadata : toJsonValue(metadata);
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
