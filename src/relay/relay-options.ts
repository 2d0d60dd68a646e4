import { ChunklogError } from '../errors/index.js';

/**
 * Checks that each of a relay's numeric options is an integer ≥ 1.
 *
 * @param where - the function checked, for the message
 * @param values - each option's name and value (its default when not given)
 * @throws {ChunklogError} `invalid-option` naming the first that is not
 */
export function checkPositiveIntegers(
  where: string,
  values: ReadonlyArray<readonly [string, number]>,
): void {
  for (const [option, value] of values) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new ChunklogError('invalid-option', `${where}: \`${option}\` must be an integer ≥ 1`, {
        option,
        value,
      });
    }
  }
}
