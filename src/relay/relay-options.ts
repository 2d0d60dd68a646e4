import { ChunklogError } from '../errors/index.js';

/**
 * Checks the client a relay is given (`redis`, `pool`): an object with the methods the relay
 * calls.
 *
 * @param options - the relay's options, as given
 * @param where - the function checked, for the message
 * @param option - the option that holds the client
 * @param methods - the methods the relay calls on it
 * @param what - what it must be, for the message (`an ioredis client`)
 * @throws {ChunklogError} `invalid-option` naming `option`
 */
export function checkClient(
  options: unknown,
  where: string,
  option: string,
  methods: readonly string[],
  what: string,
): void {
  const client =
    typeof options === 'object' && options !== null
      ? (options as Record<string, unknown>)[option]
      : undefined;
  const usable =
    typeof client === 'object' &&
    client !== null &&
    methods.every((method) => typeof (client as Record<string, unknown>)[method] === 'function');
  if (!usable) {
    throw new ChunklogError('invalid-option', `${where}: \`${option}\` must be ${what}`, {
      option,
      value: client,
    });
  }
}

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
