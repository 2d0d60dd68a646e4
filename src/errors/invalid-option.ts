import { ChunklogError } from './chunklog-error.js';

/**
 * Throws the `invalid-option` error of a public function's option or argument.
 *
 * @param where - the public function (`'toModelMessages'`)
 * @param option - the option or argument, as the caller wrote it (`'targetModelId'`)
 * @param message - what is wrong, for example "`ttl` must be '5m' or '1h'"
 * @param value - the offending value
 * @throws {ChunklogError} `invalid-option`, always
 */
export function invalidOption(
  where: string,
  option: string,
  message: string,
  value: unknown,
): never {
  throw new ChunklogError('invalid-option', `${where}: ${message}`, { option, value });
}

/**
 * Reads an options argument: undefined gives `{}`; anything but a plain object, or a key not in
 * `known`, is an `invalid-option` error (a misspelt option fails instead of being ignored).
 *
 * @param value - the untrusted options
 * @param where - the public function, for the message
 * @param known - the option names the function takes
 * @returns the options as a record
 * @throws {ChunklogError} `invalid-option`, naming `options` or the unknown key
 */
export function readOptions(
  value: unknown,
  where: string,
  known: readonly string[],
): Readonly<Record<string, unknown>> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    invalidOption(where, 'options', 'options must be an object', value);
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!known.includes(key)) invalidOption(where, key, `unknown option \`${key}\``, record[key]);
  }
  return record;
}
