// `--price model=input,output`: dollars per million input and output tokens, per model.
import type { PriceFunction } from '../store/usage-types.js';
import { UsageError } from './fail.js';

/**
 * The price function of `--price` values; undefined without any. A model with no price (and no
 * `*` price) costs NaN, which the inspector shows as no cost.
 *
 * @param values - `model=input,output` (dollars per million tokens)
 * @returns the function, or undefined
 * @throws {UsageError} for a value that is not `model=number,number`
 */
export function parsePrices(values: readonly string[]): PriceFunction | undefined {
  if (values.length === 0) return undefined;
  const table = new Map<string, { input: number; output: number }>();
  for (const value of values) {
    const match = /^([^=]+)=([0-9.]+),([0-9.]+)$/.exec(value.trim());
    const input = Number(match?.[2]);
    const output = Number(match?.[3]);
    if (match === null || !Number.isFinite(input) || !Number.isFinite(output)) {
      throw new UsageError(
        `bad --price ${JSON.stringify(value)}: write model=input,output in dollars per million tokens`,
      );
    }
    table.set(match[1] as string, { input, output });
  }
  return (modelId, usage) => {
    const rate = table.get(modelId ?? '') ?? table.get('*');
    if (rate === undefined) return Number.NaN;
    return ((usage.inputTokens ?? 0) * rate.input + (usage.outputTokens ?? 0) * rate.output) / 1e6;
  };
}
