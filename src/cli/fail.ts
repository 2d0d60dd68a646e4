// How the command line reports a failure: one line `chunklog <command>: <message>` (its control
// characters escaped), the usage after a mistake in the arguments, and its exit code (2 for the
// arguments, 1 otherwise: a file or a store that cannot be opened is a failure, not a mistake in
// how the command was written).
import { ChunklogError } from '../errors/chunklog-error.js';
import { OPENED_WITHOUT_ENCRYPTION } from '../store/codec.js';

/** A mistake in the arguments: exit code 2, with the command's usage. */
export class UsageError extends Error {
  /** @param message - what is wrong with the arguments */
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

// C0 and C1 controls, DEL, the line and paragraph separators, and the bidirectional overrides and
// isolates: what could break a message over lines, drive a terminal, or reorder what it shows.
const unsafe =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it escapes
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * The failure for a file named on the command line that cannot be opened (exit code 1, no
 * usage): `cannot open <path>: <reason>`.
 *
 * @param path - the file as the user gave it
 * @param reason - why (`no such file`)
 * @param cause - the error behind it, if any
 * @returns the error to throw
 */
export function cannotOpen(path: string, reason: string, cause?: unknown): Error {
  return new Error(`cannot open ${path}: ${reason}`, cause === undefined ? undefined : { cause });
}

/**
 * The text with its control characters escaped as JSON escapes them (`\n`, `\u001b`): one line
 * that a terminal shows as it is, whatever an untrusted id in it holds.
 *
 * @param text - the message
 * @returns the message on one line
 */
export function oneLine(text: string): string {
  return text.replace(
    unsafe,
    (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Prints the failure of `command` on stderr and sets the exit code.
 *
 * @param command - the command (`inspect`)
 * @param error - what was thrown
 * @param usage - the command's usage, printed after a mistake in the arguments
 */
export function report(command: string, error: unknown, usage: string): void {
  const message = error instanceof Error ? error.message : String(error);
  const argument = error instanceof UsageError;
  process.stderr.write(
    `chunklog ${command}: ${oneLine(message)}${flagHint(command, error)}\n${argument ? `\n${usage}\n` : ''}`,
  );
  process.exitCode = argument ? 2 : 1;
}

/**
 * Whether `error` is the read of an encrypted value by a store opened without `encryption`: how
 * the command line tells that a store is encrypted and no key was given (see `refuseWithoutKey`).
 *
 * @param error - what a read threw
 * @returns true for that `corrupt-row`
 */
export function readWithoutKey(error: unknown): boolean {
  return (
    ChunklogError.hasCode(error, 'corrupt-row') && error.message.includes(OPENED_WITHOUT_ENCRYPTION)
  );
}

/**
 * The flag that answers a failure the library words for its API (`encryption`,
 * `store.migrate()`), in the command line's terms; empty for any other failure.
 */
function flagHint(command: string, error: unknown): string {
  // The error itself, or the one a command's own message wraps (its `cause`).
  const causes = [error, error instanceof Error ? error.cause : undefined];
  if (causes.some(readWithoutKey))
    return ' (the store is encrypted: pass --key-file or --key-module)';
  if (ChunklogError.hasCode(error, 'not-migrated') && command !== 'import') {
    return ' (is it the right database and --prefix? `chunklog import --migrate` creates or upgrades the tables)';
  }
  return '';
}
