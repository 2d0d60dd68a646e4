// The key providers check what they are given when made, as every entry point does: an unknown
// or misspelt option, a master key that is not 32 bytes or is all zeros (a buffer never filled),
// initial keys that are not { [threadId]: [{ version, key }] } are `invalid-option` at once, not
// at the first write.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileKeyProvider, createMemoryKeyProvider } from '../../../src/store/index.js';
import { thrown } from '../../support/chunklog-error.js';

const dir = mkdtempSync(join(tmpdir(), 'chunklog-key-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const path = join(dir, 'keys.json');
const masterKey = new Uint8Array(32).fill(5);

/** What making a provider with `make` is refused with: [option, message]. */
function refusal(make: () => unknown): [string | undefined, string] {
  const error = thrown(make);
  expect(error.code).toBe('invalid-option');
  return [error.option, error.message];
}

describe('createFileKeyProvider options', () => {
  it('refuses a misspelt option by its name, listing the options', () => {
    const [option, message] = refusal(() =>
      createFileKeyProvider({ path, masterkey: masterKey } as never),
    );
    expect(option).toBe('masterkey');
    expect(message).toContain('unknown option `masterkey` (did you mean `masterKey`?)');
    expect(message).toContain('the options are `path`, `masterKey`');
  });

  it('refuses an unknown option beside the right ones', () => {
    const [option, message] = refusal(() =>
      createFileKeyProvider({ path, masterKey, extra: 1 } as never),
    );
    expect(option).toBe('extra');
    expect(message).toContain('unknown option `extra`');
  });

  it('refuses options that are not an object', () => {
    expect(refusal(() => createFileKeyProvider('keys.json' as never))[0]).toBe('options');
  });

  it('refuses an all-zero master key as a likely misconfiguration', () => {
    const [option, message] = refusal(() =>
      createFileKeyProvider({ path, masterKey: new Uint8Array(32) }),
    );
    expect(option).toBe('masterKey');
    expect(message).toContain('all zeros');
    expect(message).toContain('misconfiguration');
  });

  it('still names `path` and a short `masterKey`, and takes a good master key', () => {
    expect(refusal(() => createFileKeyProvider({ path: '', masterKey }))[0]).toBe('path');
    expect(
      refusal(() => createFileKeyProvider({ path, masterKey: new Uint8Array(16).fill(1) })),
    ).toEqual(['masterKey', expect.stringContaining('must be 32 bytes')]);
    const oneByte = new Uint8Array(32);
    oneByte[31] = 1;
    expect(() => createFileKeyProvider({ path, masterKey: oneByte })).not.toThrow();
  });
});

describe('createMemoryKeyProvider initial keys', () => {
  const key = <V>(version: V, bytes = 32) => ({ version, key: new Uint8Array(bytes).fill(3) });

  it.each([
    ['an array', []],
    ['null', null],
    ['a string', 'keys'],
    ['a Map', new Map([['t', [key(1)]]])],
  ])('refuses %s instead of an object of threads', (_, initial) => {
    const [option, message] = refusal(() => createMemoryKeyProvider(initial as never));
    expect(option).toBe('initial');
    expect(message).toContain('must be an object of thread ids to arrays of keys');
  });

  it.each([
    ['a thread whose keys are not an array', { t: key(1) }],
    ['a 16-byte key', { t: [key(1, 16)] }],
    ['a version that is not an integer', { t: [key('x')] }],
    ['version 0', { t: [key(0)] }],
    ['a key that is not bytes', { t: [{ version: 1, key: 'a'.repeat(32) }] }],
    ['a missing key', { t: [null] }],
    ['a version given twice', { t: [key(1), key(1)] }],
  ])('refuses %s at once, naming the thread', (_, initial) => {
    const [option, message] = refusal(() => createMemoryKeyProvider(initial as never));
    expect(option).toBe('initial');
    expect(message).toContain('thread "t"');
  });

  it('takes its own export and keys out of order, giving the newest as the newest', async () => {
    const keys = createMemoryKeyProvider({ t: [key(2), key(1)], u: [] });
    expect((await keys.getKey('t'))?.version).toBe(2);
    expect((await keys.createKey('t')).version).toBe(3);
    const copy = createMemoryKeyProvider(keys.export());
    expect((await copy.getKey('t', 1))?.key).toEqual(new Uint8Array(32).fill(3));
    expect(() => createMemoryKeyProvider(undefined)).not.toThrow();
    expect(() => createMemoryKeyProvider(Object.create(null))).not.toThrow();
  });
});
