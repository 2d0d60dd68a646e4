// `--key-file`: the master key comes from CHUNKLOG_MASTER_KEY (32 bytes, base64 or hex), a
// read-only command refuses a key file that is not there (a failure to open it, exit code 1), and
// each mistake in the master key is a usage error naming it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/fail.js';
import { keyFileEncryption, MASTER_KEY_ENV } from '../../src/cli/key-file.js';
import { createChunkStore, createFileKeyProvider } from '../../src/store/index.js';
import { tempDir } from '../examples/support.js';

const temp = tempDir('key-file');
afterAll(() => temp.remove());

const master = Uint8Array.from({ length: 32 }, (_, i) => i * 7);

function usageError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('no usage error');
}

describe('keyFileEncryption', () => {
  it('opens the keys a store made with the same master key, written in base64 or in hex', async () => {
    const keyFile = join(temp.dir, 'keys.json');
    const file = join(temp.dir, 'store.db');
    const writer = createChunkStore(
      { sqlite: file },
      { encryption: { keys: createFileKeyProvider({ path: keyFile, masterKey: master }) } },
    );
    await writer.migrate();
    await writer.createThread('t', { title: 'sealed' });
    await writer.close();
    for (const written of [
      Buffer.from(master).toString('base64'),
      Buffer.from(master).toString('hex'),
      ` ${Buffer.from(master).toString('hex').toUpperCase()}\n`,
    ]) {
      const encryption = keyFileEncryption(keyFile, true, { [MASTER_KEY_ENV]: written });
      const reader = createChunkStore({ sqlite: file }, { encryption });
      expect((await reader.getThread('t')).title).toBe('sealed');
      await reader.close();
    }
  });

  it('is undefined without --key-file, and names what is missing or wrong', () => {
    expect(keyFileEncryption(undefined, true, {})).toBeUndefined();
    const keyFile = join(temp.dir, 'present.json');
    writeFileSync(keyFile, '{}');
    expect(usageError(() => keyFileEncryption(keyFile, true, {}))).toContain(MASTER_KEY_ENV);
    for (const bad of ['short', Buffer.alloc(16).toString('base64'), 'zz'.repeat(32)]) {
      expect(
        usageError(() => keyFileEncryption(keyFile, true, { [MASTER_KEY_ENV]: bad })),
      ).toContain('must be 32 bytes');
    }
    const missing = join(temp.dir, 'missing.json');
    const env = { [MASTER_KEY_ENV]: Buffer.from(master).toString('base64') };
    const notThere = (() => {
      try {
        keyFileEncryption(missing, true, env);
      } catch (error) {
        return error;
      }
    })();
    expect(notThere).toBeInstanceOf(Error);
    expect(notThere).not.toBeInstanceOf(UsageError);
    expect((notThere as Error).message).toBe(`cannot open ${missing}: no such file (--key-file)`);
    expect(keyFileEncryption(missing, false, env)).toBeDefined();
  });
});
