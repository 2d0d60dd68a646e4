// `chunklog import <db> <file | -> [--thread-id id] [--append] [--migrate] [--max-line-length n]`.
import { constants } from 'node:buffer';
import { createReadStream, existsSync, fstatSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ChunklogError } from '../errors/chunklog-error.js';
import { openWritableStore } from '../inspect/open-target.js';
import {
  DEFAULT_MAX_LINE_LENGTH,
  importThread,
  type NamingImportThreadOptions,
  OPTION_NAMING,
} from '../transfer/import-thread.js';
import type { OptionNames } from '../transfer/importer.js';
import { cannotOpen, UsageError } from './fail.js';
import { refuseWithoutKey, STORE_FLAGS, storeEncryption } from './store-encryption.js';

const isUrl = (target: string) => /^(postgres(ql)?|mysql):\/\//.test(target);

/** The flags, as the import's messages name them. */
const FLAGS: OptionNames = {
  threadId: '--thread-id',
  append: '--append',
  maxLineLength: '--max-line-length',
};

/**
 * The longest line to read: the flag's; else, from a file, the file's size (a line is no longer
 * than its file, so an export is read whole however large a row is; the engine's longest string
 * at most); else, from a pipe, `importThread`'s default.
 */
function maxLineLength(flag: string | undefined, file: string): number {
  if (flag !== undefined) {
    const value = /^[0-9]+$/.test(flag) ? Number(flag) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new UsageError('--max-line-length must be a positive whole number of characters');
    }
    return value;
  }
  const stats = file === '-' ? fstatSync(0) : statSync(file);
  if (!stats.isFile()) return DEFAULT_MAX_LINE_LENGTH;
  return Math.min(Math.max(stats.size, DEFAULT_MAX_LINE_LENGTH), constants.MAX_STRING_LENGTH);
}

/**
 * Runs `chunklog import`.
 *
 * @param args - the arguments after `import`
 * @throws {UsageError} for bad arguments; `importThread`'s and the store's errors
 */
export async function importCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'thread-id': { type: 'string' },
      append: { type: 'boolean', default: false },
      migrate: { type: 'boolean', default: false },
      'max-line-length': { type: 'string' },
      ...STORE_FLAGS,
    },
  });
  const [target, file] = positionals;
  if (target === undefined || file === undefined || positionals.length > 2) {
    throw new UsageError('give a store and a file');
  }
  // Files that are not there are failures (exit 1), named plainly, not mistakes in the arguments.
  if (file !== '-' && !existsSync(file)) throw cannotOpen(file, 'no such file');
  if (!isUrl(target) && !existsSync(target) && !values.migrate) {
    throw cannotOpen(target, 'no such file (pass --migrate to create a store there)');
  }
  const maxLine = maxLineLength(values['max-line-length'], file);
  const encryption = await storeEncryption(values, false);
  const opened = await openWritableStore(target, { tablePrefix: values.prefix, encryption });
  try {
    if (values.migrate) await opened.store.migrate();
    const options: NamingImportThreadOptions = {
      threadId: values['thread-id'],
      onExistingThread: values.append ? 'append' : 'error',
      maxLineLength: maxLine,
      [OPTION_NAMING]: FLAGS,
    };
    const run = async () => {
      // Without a key, an encrypted store would get the thread in clear: refused, as export and
      // inspect refuse to read it, before anything is written.
      if (encryption === undefined) await refuseWithoutKey(opened.store);
      const input = file === '-' ? process.stdin : createReadStream(file);
      return await importThread(opened.store, input, options);
    };
    const result = await run().catch((error: unknown) => {
      if (ChunklogError.hasCode(error, 'not-migrated')) {
        throw new Error(`${error.message} (pass --migrate to create or upgrade the tables)`, {
          cause: error,
        });
      }
      throw error;
    });
    const skipped =
      result.skippedTurns > 0 ? `; ${result.skippedTurns} turn(s) were there already` : '';
    process.stdout.write(
      `imported ${result.turns} turn(s), ${result.rows} row(s) into thread ${JSON.stringify(result.threadId)}${skipped}${result.sameSeqs ? '; every row kept its seq' : ''}\n`,
    );
  } finally {
    await opened.close();
  }
}
