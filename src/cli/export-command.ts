// `chunklog export <db> <threadId> [--path active|thread] [--out file]`: a thread as JSON Lines,
// read-only.
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { ChunklogError } from '../errors/chunklog-error.js';
import { RUNNING_NOT_STORED } from '../inspect/not-stored.js';
import { openReadOnlyStore } from '../inspect/open-target.js';
import {
  exportThread,
  type NamingExportThreadOptions,
  PATH_NAMES,
  type PathNames,
} from '../transfer/export-thread.js';
import { oneLine, UsageError } from './fail.js';
import { STORE_FLAGS, storeEncryption } from './store-encryption.js';

/** Counts what passes through: the end line says how many turns and rows were written. */
async function* counted(
  lines: AsyncIterable<string>,
  tally: { turns: number; rows: number },
): AsyncGenerator<string> {
  for await (const line of lines) {
    if (line.startsWith('{"kind":"end"')) Object.assign(tally, JSON.parse(line));
    yield line;
  }
}

/** The `--path` values, as the refusal of a conversation with versions names them. */
const FLAGS: PathNames = { active: '--path active', thread: '--path thread' };

const quietPipe = (error: unknown) => (error as { code?: unknown } | null)?.code === 'EPIPE';

/**
 * Runs `chunklog export`.
 *
 * @param args - the arguments after `export`
 * @throws {UsageError} for bad arguments; the store's errors
 */
export async function exportCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      path: { type: 'string' },
      ...STORE_FLAGS,
    },
  });
  const [target, threadId] = positionals;
  if (target === undefined || threadId === undefined || positionals.length > 2) {
    throw new UsageError('give a store and a thread id');
  }
  const path = values.path;
  if (path !== undefined && path !== 'active' && path !== 'thread') {
    throw new UsageError(`--path must be active or thread, not ${path}`);
  }
  const encryption = await storeEncryption(values, true);
  const opened = await openReadOnlyStore(target, {
    tablePrefix: values.prefix,
    purpose: 'chunklog export',
    encryption,
  });
  const tally = { turns: 0, rows: 0 };
  try {
    const options: NamingExportThreadOptions = { path, [PATH_NAMES]: FLAGS };
    const lines = Readable.from(counted(exportThread(opened.store, threadId, options), tally));
    if (values.out === undefined) {
      await pipeline(lines, process.stdout, { end: false }).catch((error: unknown) => {
        if (!quietPipe(error)) throw error; // the reader went away (piped to head): stop quietly
      });
      return;
    }
    // Written beside the file, then renamed: the file is whole or not there. What an encrypted
    // store holds is written decrypted: readable by the owner only, as the key file is.
    const partial = `${values.out}.partial-${process.pid}`;
    const mode = encryption === undefined ? undefined : { mode: 0o600 };
    try {
      await rm(partial, { force: true }); // one a dead process left keeps its mode
      await pipeline(lines, createWriteStream(partial, mode));
      await rename(partial, values.out);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    process.stderr.write(
      `chunklog export: thread ${JSON.stringify(threadId)} (${tally.turns} turns, ${tally.rows} rows) written to ${oneLine(values.out)}\n`,
    );
  } catch (error) {
    // No row of the thread is stored: say so, and the likely reason a user who sees it in the
    // app meets (its first turn still runs under durability: 'turn').
    if (ChunklogError.hasCode(error, 'thread-not-found') && error.threadId === threadId) {
      throw new Error(
        `thread ${JSON.stringify(threadId)} has no stored rows: it was never created, was deleted, or its first turn is still running. ${RUNNING_NOT_STORED} Nothing was written.`,
        { cause: error },
      );
    }
    throw error;
  } finally {
    await opened.close();
  }
}
