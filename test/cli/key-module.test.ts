// `--key-module`: the CLI takes the app's own key provider from a module (its default export,
// or what that function returns); a module that exports no provider is a usage error naming it,
// one that is not there, does not load or throws is a failure (exit code 1) naming it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/fail.js';
import { keyModuleEncryption } from '../../src/cli/key-module.js';
import { storeEncryption } from '../../src/cli/store-encryption.js';
import { tempDir } from '../examples/support.js';

const temp = tempDir('key-module');
afterAll(() => temp.remove());

let modules = 0;
/** Writes a module with `source` in the temporary folder; returns its file name (relative). */
function moduleOf(source: string): string {
  const name = `keys-${modules++}.mjs`;
  writeFileSync(join(temp.dir, name), source);
  return name;
}

/** A provider written in plain JavaScript (the module cannot import chunklog from here). */
const PROVIDER = `{
  async getKey(threadId, version) { return { version: version ?? 1, key: new Uint8Array(32).fill(3) }; },
  async createKey() { return { version: 1, key: new Uint8Array(32).fill(3) }; },
  async destroyKey() {},
}`;

/** The message of the failure `run` throws: an error that is not a mistake in the arguments. */
async function failure(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('no failure');
}

async function usageError(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('no usage error');
}

describe('keyModuleEncryption', () => {
  it.each([
    { exported: 'the provider', source: `export default ${PROVIDER};` },
    { exported: 'a function returning it', source: `export default () => (${PROVIDER});` },
    {
      exported: 'an async function returning it',
      source: `export default async () => (${PROVIDER});`,
    },
  ])(
    'takes $exported as the default export, a path relative to the folder given',
    async ({ source }) => {
      const encryption = await keyModuleEncryption(moduleOf(source), temp.dir);
      const key = await encryption?.keys.getKey('t', 4);
      expect(key?.version).toBe(4);
      expect(key?.key).toEqual(new Uint8Array(32).fill(3));
    },
  );

  it('gives no encryption without the flag', async () => {
    expect(await keyModuleEncryption(undefined, temp.dir)).toBeUndefined();
  });

  it('names the module that does not load, exports no provider, or throws', async () => {
    expect(await failure(() => keyModuleEncryption('missing.mjs', temp.dir))).toBe(
      'cannot open missing.mjs: no such file (--key-module)',
    );
    const broken = moduleOf('export default {');
    expect(await failure(() => keyModuleEncryption(broken, temp.dir))).toContain(
      `--key-module ${broken} did not load`,
    );
    const named = moduleOf(`export const keys = ${PROVIDER};`);
    expect(await usageError(() => keyModuleEncryption(named, temp.dir))).toContain(
      'must export a key provider (an object with getKey, createKey, destroyKey)',
    );
    const partial = moduleOf('export default { async getKey() {} };');
    expect(await usageError(() => keyModuleEncryption(partial, temp.dir))).toContain(
      'must export a key provider',
    );
    const throwing = moduleOf("export default () => { throw new Error('no KMS credentials'); };");
    expect(await failure(() => keyModuleEncryption(throwing, temp.dir))).toBe(
      `--key-module ${throwing}: its default export threw: no KMS credentials`,
    );
  });

  it('refuses --key-file and --key-module together', async () => {
    expect(
      await usageError(() =>
        storeEncryption({ 'key-file': 'keys.json', 'key-module': 'keys.mjs' }, true),
      ),
    ).toBe('give --key-file or --key-module, not both');
  });
});
