// `chunklog import <db> <file | -> [--thread-id id] [--append] [--migrate]`.
import { createReadStream, existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ChunklogError } from '../errors/chunklog-error.js';
import { openWritableStore } from '../inspect/open-target.js';
import { importThread } from '../transfer/import-thread.js';
import { UsageError } from './fail.js';
import { STORE_FLAGS, storeEncryption } from './store-encryption.js';

const isUrl = (target: string) => /^(postgres(ql)?|mysql):\/\//.test(target);

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
      ...STORE_FLAGS,
    },
  });
  const [target, file] = positionals;
  if (target === undefined || file === undefined || positionals.length > 2) {
    throw new UsageError('give a store and a file');
  }
  if (file !== '-' && !existsSync(file)) throw new UsageError(`no file ${file}`);
  if (!isUrl(target) && !existsSync(target) && !values.migrate) {
    throw new UsageError(`no SQLite file ${target}: pass --migrate to create a store there`);
  }
  const encryption = await storeEncryption(values, false);
  const opened = await openWritableStore(target, { tablePrefix: values.prefix, encryption });
  try {
    if (values.migrate) await opened.store.migrate();
    const input = file === '-' ? process.stdin : createReadStream(file);
    const result = await importThread(opened.store, input, {
      threadId: values['thread-id'],
      onExistingThread: values.append ? 'append' : 'error',
    }).catch((error: unknown) => {
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
      `imported ${result.turns} turn(s), ${result.rows} row(s) into thread ${result.threadId}${skipped}${result.sameSeqs ? '; every row kept its seq' : ''}\n`,
    );
  } finally {
    await opened.close();
  }
}
