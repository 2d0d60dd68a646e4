// How the command line reports a failure: one line `chunklog <command>: <message>`, the usage
// after a mistake in the arguments, and its exit code (2 for the arguments, 1 otherwise).
import { ChunklogError } from '../errors/chunklog-error.js';

/** A mistake in the arguments: exit code 2, with the command's usage. */
export class UsageError extends Error {
  /** @param message - what is wrong with the arguments */
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
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
  // A target that cannot be opened is an argument the user gave: usage, exit 2.
  const argument =
    error instanceof UsageError ||
    (ChunklogError.hasCode(error, 'invalid-option') && error.option === 'target');
  process.stderr.write(`chunklog ${command}: ${message}\n${argument ? `\n${usage}\n` : ''}`);
  process.exitCode = argument ? 2 : 1;
}
