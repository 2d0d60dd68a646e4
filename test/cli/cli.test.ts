// `chunklog export` and `chunklog import` (dist/cli.js, the package's bin) as a user runs them:
// a thread out of one SQLite file and into another or into PostgreSQL, through a file or a pipe;
// a bad file stops the import with its line; mistakes in the arguments exit 2 with the usage.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createChunkStore,
  createFileKeyProvider,
  createMemoryKeyProvider,
} from '../../src/store/index.js';
import { EXAMPLE_TIMEOUT_MS, ensureBuilt, ROOT, tempDir } from '../examples/support.js';
import { createHarness, type DialectHarness } from '../store/support/dialects.js';
import { POSTGRES_URL, postgresAvailable } from '../support/services.js';
import { seedTransferThread } from '../transfer/support.js';

// Waits are margins load cannot reach, not measures of speed (see EXAMPLE_TIMEOUT_MS).
vi.setConfig({ testTimeout: EXAMPLE_TIMEOUT_MS, hookTimeout: EXAMPLE_TIMEOUT_MS });

const temp = tempDir('cli');
const source = join(temp.dir, 'source.db');
const harnesses: DialectHarness[] = [];

beforeAll(async () => {
  ensureBuilt();
  const store = createChunkStore({ sqlite: source });
  await store.migrate();
  await seedTransferThread(store, 'trip');
  await store.close();
});
afterAll(async () => {
  for (const harness of harnesses) await harness.dispose();
  temp.remove();
});

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function cli(
  args: readonly string[],
  shell?: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Run> {
  const child = shell
    ? spawn('bash', ['-o', 'pipefail', '-c', shell], { cwd: ROOT, env })
    : spawn(process.execPath, [join(ROOT, 'dist/cli.js'), ...args], { cwd: ROOT, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (data: Buffer) => {
    stdout += data.toString();
  });
  child.stderr.on('data', (data: Buffer) => {
    stderr += data.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The rows of an export's lines, without their creation times. */
/** An SQLite file, encrypted with a key file under `masterKey`, holding the thread `trip`. */
async function encryptedTrip(
  keyName: string,
  dbName: string,
  masterKey: Uint8Array,
): Promise<{ keyFile: string; encrypted: string }> {
  const keyFile = join(temp.dir, keyName);
  const encrypted = join(temp.dir, dbName);
  const store = createChunkStore(
    { sqlite: encrypted },
    { encryption: { keys: createFileKeyProvider({ path: keyFile, masterKey }) } },
  );
  await store.migrate();
  await seedTransferThread(store, 'trip');
  await store.close();
  return { keyFile, encrypted };
}

function exportedRows(stdout: string): unknown[] {
  return stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { kind: string; createdAt?: string })
    .filter((line) => line.kind === 'row')
    .map(({ createdAt: _createdAt, ...row }) => row);
}

describe('chunklog export and import of an encrypted store (--key-file)', () => {
  it('refuses without the key file or the master key, then exports the same rows and imports them into a new encrypted file', async () => {
    const masterKey = new Uint8Array(32).fill(7);
    const env = { ...process.env, CHUNKLOG_MASTER_KEY: Buffer.from(masterKey).toString('base64') };
    const { keyFile, encrypted } = await encryptedTrip('keys.json', 'encrypted.db', masterKey);
    expect(readFileSync(encrypted).includes('Plan a trip')).toBe(false);

    const blind = await cli(['export', encrypted, 'trip']);
    expect(blind.code).not.toBe(0);
    expect(blind.stderr).toContain('encrypted');
    const noMaster = await cli(['export', encrypted, 'trip', '--key-file', keyFile]);
    expect(noMaster.code).toBe(2);
    expect(noMaster.stderr).toContain('CHUNKLOG_MASTER_KEY');
    const badMaster = await cli(['export', encrypted, 'trip', '--key-file', keyFile], undefined, {
      ...env,
      CHUNKLOG_MASTER_KEY: 'short',
    });
    expect(badMaster.code).toBe(2);
    expect(badMaster.stderr).toContain('32 bytes');
    const noFile = await cli(
      ['export', encrypted, 'trip', '--key-file', `${keyFile}.missing`],
      undefined,
      env,
    );
    expect(noFile.code).toBe(1);
    expect(noFile.stderr).toBe(
      `chunklog export: cannot open ${keyFile}.missing: no such file (--key-file)\n`,
    );

    // Without a key, the failure names the flags that give one (not the library's option).
    const noKey = await cli(['export', encrypted, 'trip'], undefined, env);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain('the store is encrypted: pass --key-file or --key-module');
    // The inspector too: not a question about the table prefix.
    const inspectNoKey = await cli(['inspect', encrypted, '--port', '0'], undefined, env);
    expect(inspectNoKey.code).toBe(1);
    expect(inspectNoKey.stderr).toContain(
      'the store is encrypted: pass --key-file or --key-module',
    );
    expect(inspectNoKey.stderr).not.toContain('--prefix');

    const clear = await cli(['export', source, 'trip']);
    const opened = await cli(['export', encrypted, 'trip', '--key-file', keyFile], undefined, env);
    expect(opened.code).toBe(0);
    expect(exportedRows(opened.stdout)).toEqual(exportedRows(clear.stdout));

    const file = join(temp.dir, 'encrypted-trip.jsonl');
    writeFileSync(file, opened.stdout);
    const copy = join(temp.dir, 'encrypted-copy.db');
    const copyKeys = join(temp.dir, 'copy-keys.json');
    const imported = await cli(
      ['import', copy, file, '--migrate', '--key-file', copyKeys],
      undefined,
      env,
    );
    expect(imported.code).toBe(0);
    expect(readFileSync(copy).includes('Plan a trip')).toBe(false);
    const back = await cli(['export', copy, 'trip', '--key-file', copyKeys], undefined, env);
    expect(exportedRows(back.stdout)).toEqual(exportedRows(clear.stdout));
  });
});

describe('chunklog import and inspect of an encrypted store, the one check that a key was given', () => {
  it('import without a key refuses (exit 1, one line) and writes nothing, as export and inspect refuse to read', async () => {
    const masterKey = new Uint8Array(32).fill(5);
    const env = { ...process.env, CHUNKLOG_MASTER_KEY: Buffer.from(masterKey).toString('base64') };
    const { keyFile, encrypted } = await encryptedTrip('import-keys.json', 'import.db', masterKey);
    const file = join(temp.dir, 'import-trip.jsonl');
    expect((await cli(['export', source, 'trip', '--out', file])).code).toBe(0);

    const blind = await cli(['import', encrypted, file, '--thread-id', 'oops'], undefined, env);
    expect(blind.stdout).toBe('');
    expect(blind.stderr).toMatch(
      /^chunklog import: [^\n]*\(the store is encrypted: pass --key-file or --key-module\)\n$/,
    );
    expect(blind.code).toBe(1);
    expect(readFileSync(encrypted).includes('Plan a trip')).toBe(false);
    const store = createChunkStore(
      { sqlite: encrypted },
      { encryption: { keys: createFileKeyProvider({ path: keyFile, masterKey }) } },
    );
    try {
      expect((await store.listThreads()).threads.map((t) => t.id)).toEqual(['trip']);
    } finally {
      await store.close();
    }
    // With the key it imports, encrypted; into a clear store without one, as before.
    const keyed = await cli(
      ['import', encrypted, file, '--thread-id', 'copy', '--key-file', keyFile],
      undefined,
      env,
    );
    expect(keyed.code).toBe(0);
    expect(readFileSync(encrypted).includes('Plan a trip')).toBe(false);
    const clear = await cli(['import', join(temp.dir, 'import-clear.db'), file, '--migrate']);
    expect(clear.code).toBe(0);
  });

  it('inspect --key-file of a store holding a thread whose key is gone (a backup restored after eraseThread) starts, and lists it as unreadable', async () => {
    const masterKey = new Uint8Array(32).fill(6);
    const env = { ...process.env, CHUNKLOG_MASTER_KEY: Buffer.from(masterKey).toString('base64') };
    const { keyFile, encrypted } = await encryptedTrip('shred-keys.json', 'shred.db', masterKey);
    const keys = createFileKeyProvider({ path: keyFile, masterKey });
    const store = createChunkStore({ sqlite: encrypted }, { encryption: { keys } });
    await store.createThread('shredded', { title: 'Gone title', metadata: { m: 1 } });
    await store.close();
    await keys.destroyKey('shredded');

    const inspector = spawn(
      process.execPath,
      [join(ROOT, 'dist/cli.js'), 'inspect', encrypted, '--port', '0', '--key-file', keyFile],
      { cwd: ROOT, env },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        let err = '';
        inspector.stdout.on('data', (data: Buffer) => {
          out += data.toString();
          const found = /http:\/\/[^\s]+/.exec(out);
          if (found) resolve(found[0]);
        });
        inspector.stderr.on('data', (data: Buffer) => {
          err += data.toString();
        });
        inspector.on('close', (code) => reject(new Error(`inspect exited ${code}: ${err}`)));
      });
      const page = await (await fetch(url)).text();
      expect(page).toContain('Trip planning');
      expect(page).toContain('Threads that cannot be read');
      expect(page).toContain('shredded');
      expect(page).toContain('is encrypted under a key the key provider does not have');
    } finally {
      inspector.kill();
    }
    // Without the key file it still refuses, as before.
    const blind = await cli(['inspect', encrypted, '--port', '0'], undefined, env);
    expect(blind.code).toBe(1);
    expect(blind.stderr).toContain('the store is encrypted: pass --key-file or --key-module');
  });
});

describe("chunklog inspect and export of a store with the app's own key provider (--key-module)", () => {
  it('exports the same rows as the clear store, and the inspector lists the encrypted thread by its title', async () => {
    const keys = createMemoryKeyProvider();
    const encrypted = join(temp.dir, 'kms.db');
    const store = createChunkStore({ sqlite: encrypted }, { encryption: { keys } });
    await store.migrate();
    await seedTransferThread(store, 'trip');
    await store.updateThread('trip', { title: 'Trip to Lisbon' });
    await store.close();
    expect(readFileSync(encrypted).includes('Plan a trip')).toBe(false);
    // The app's provider, as a module: here a memory provider holding the keys the store made.
    const exported = Object.entries(keys.export()).map(([id, list]) => [
      id,
      list.map((k) => ({ version: k.version, key: Buffer.from(k.key).toString('base64') })),
    ]);
    const keyModule = join(temp.dir, 'kms-keys.mjs');
    writeFileSync(
      keyModule,
      [
        `import { createMemoryKeyProvider } from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist/store/index.js')).href)};`,
        `const keys = ${JSON.stringify(Object.fromEntries(exported))};`,
        'export default async () => createMemoryKeyProvider(Object.fromEntries(Object.entries(keys).map(',
        "  ([id, list]) => [id, list.map((k) => ({ version: k.version, key: Buffer.from(k.key, 'base64') }))])));",
      ].join('\n'),
    );

    const clear = await cli(['export', source, 'trip']);
    const opened = await cli(['export', encrypted, 'trip', '--key-module', keyModule]);
    expect(opened.stderr).toBe('');
    expect(opened.code).toBe(0);
    expect(exportedRows(opened.stdout)).toEqual(exportedRows(clear.stdout));

    const inspector = spawn(
      process.execPath,
      [join(ROOT, 'dist/cli.js'), 'inspect', encrypted, '--port', '0', '--key-module', keyModule],
      { cwd: ROOT },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        inspector.stdout.on('data', (data: Buffer) => {
          out += data.toString();
          const found = /http:\/\/[^\s]+/.exec(out);
          if (found) resolve(found[0]);
        });
        inspector.on('close', (code) => reject(new Error(`inspect exited ${code}: ${out}`)));
      });
      const page = await (await fetch(url)).text();
      expect(page).toContain('Trip to Lisbon');
    } finally {
      inspector.kill();
    }
  });
});

describe('chunklog export --out of an encrypted store', () => {
  it('writes the decrypted file readable by its owner only (0600), as the key file is; a clear store as before', async () => {
    const masterKey = new Uint8Array(32).fill(11);
    const env = { ...process.env, CHUNKLOG_MASTER_KEY: Buffer.from(masterKey).toString('hex') };
    const { keyFile, encrypted } = await encryptedTrip('mode-keys.json', 'mode.db', masterKey);
    const mode = (file: string) => statSync(file).mode & 0o777;
    expect(mode(keyFile)).toBe(0o600);

    const out = join(temp.dir, 'mode-trip.jsonl');
    const run = await cli(
      ['export', encrypted, 'trip', '--key-file', keyFile, '--out', out],
      undefined,
      env,
    );
    expect(run.stderr).toContain('written to');
    expect(run.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('Plan a trip');
    expect(mode(out)).toBe(0o600);

    // A clear store's export keeps the default mode (the umask's).
    const clearOut = join(temp.dir, 'mode-clear.jsonl');
    expect((await cli(['export', source, 'trip', '--out', clearOut])).code).toBe(0);
    expect(mode(clearOut)).toBe(0o666 & ~process.umask());
  });
});

describe('chunklog export and import', () => {
  it('exports a thread to a file and imports it into a new SQLite file, then appends nothing twice', async () => {
    const file = join(temp.dir, 'trip.jsonl');
    const out = await cli(['export', source, 'trip', '--out', file]);
    expect(out).toMatchObject({ code: 0, stdout: '' });
    expect(out.stderr).toMatch(/^chunklog export: thread "trip" \(5 turns, \d+ rows\) written to /);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(JSON.parse(lines[0] as string)).toMatchObject({ format: 'chunklog-thread', version: 1 });
    expect(readdirSync(temp.dir).filter((name) => name.includes('.partial-'))).toEqual([]);

    // A SQLite file without the store's tables: the failure says how to make them.
    const bare = join(temp.dir, 'bare.db');
    writeFileSync(bare, '');
    const notStore = await cli(['export', bare, 'trip']);
    expect(notStore.code).toBe(1);
    expect(notStore.stderr).toContain('`chunklog import --migrate` creates or upgrades the tables');

    const target = join(temp.dir, 'target.db');
    const refused = await cli(['import', target, file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `chunklog import: cannot open ${target}: no such file (pass --migrate to create a store there)\n`,
    );
    expect(existsSync(target)).toBe(false);

    const first = await cli(['import', target, file, '--migrate', '--thread-id', 'copy']);
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(
      /^imported 5 turn\(s\), \d+ row\(s\) into thread "copy"; every row kept its seq\n$/,
    );
    const again = await cli(['import', target, file, '--thread-id', 'copy']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /^chunklog import: importThread: thread "copy" exists already; nothing was imported/,
    );
    // The message names the command's flags, not importThread's options.
    expect(again.stderr).toContain(
      'Import under another id (--thread-id), or pass --append to add the turns it does not hold',
    );
    const append = await cli(['import', target, file, '--thread-id', 'copy', '--append']);
    expect(append.stdout).toContain(
      'imported 0 turn(s), 0 row(s) into thread "copy"; 5 turn(s) were there already',
    );

    const store = createChunkStore({ sqlite: target });
    const original = createChunkStore({ sqlite: source });
    try {
      const strip = (rows: readonly { threadId: string; turnId: string; seq: number }[]) =>
        rows.map((row) => `${row.seq} ${row.turnId}`);
      expect(strip(await store.getRows('copy'))).toEqual(strip(await original.getRows('trip')));
      expect((await store.getThread('copy')).title).toBe('Trip planning');
    } finally {
      await store.close();
      await original.close();
    }
  });

  it('pipes an export into an import, and stops a bad file at its line', async () => {
    const target = join(temp.dir, 'piped.db');
    const cliPath = join(ROOT, 'dist/cli.js');
    const piped = await cli(
      [],
      `"${process.execPath}" "${cliPath}" export "${source}" trip | "${process.execPath}" "${cliPath}" import "${target}" - --migrate`,
    );
    expect(piped.stderr).toBe('');
    expect(piped.stdout).toContain('imported 5 turn(s)');
    expect(piped.code).toBe(0);

    const lines = (await cli(['export', source, 'trip'])).stdout.trimEnd().split('\n');
    const bad = lines.findIndex((line) =>
      line.includes('"turnId":"t2","step":0,"role":"assistant"'),
    );
    lines[bad] = (lines[bad] as string).replace('"step":0', '"step":"zero"');
    const file = join(temp.dir, 'bad.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const result = await cli(['import', join(temp.dir, 'bad.db'), file, '--migrate']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^chunklog import: importThread: line ${bad + 1}: not a valid row line at step`),
    );
    expect(result.stderr).toContain(
      'The 1 turn(s) before it are in thread "trip" (the last: "t1")',
    );
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('prints an error on one line, escaping the control characters of what the file or the arguments hold', async () => {
    // What a terminal would run as a new line, an erased line and hidden text.
    const fake = '\n\u001b[2K\rchunklog import: imported 5 turn(s)\u001b[8m';
    const noFile = await cli(['import', join(temp.dir, 'x.db'), `trip.jsonl${fake}`]);
    expect(noFile.code).toBe(1);
    expect(noFile.stderr.split('\n')[0]).toBe(
      'chunklog import: cannot open trip.jsonl\\n\\u001b[2K\\rchunklog import: imported 5 turn(s)\\u001b[8m: no such file',
    );
    const unknown = await cli([`exprot${fake}`]);
    expect(unknown.stderr.split('\n')[0]).toBe(
      'chunklog: unknown command exprot\\n\\u001b[2K\\rchunklog import: imported 5 turn(s)\\u001b[8m',
    );
    // A row's turn id holding an 8-bit CSI, a line separator and a right-to-left override, which
    // JSON.stringify leaves as they are.
    const lines = (await cli(['export', source, 'trip'])).stdout.trimEnd().split('\n');
    const row = lines.findIndex((line) => line.includes('"kind":"row"'));
    lines[row] = (lines[row] as string).replace(
      '"turnId":"t1"',
      '"turnId":"t1\u009b2K\u2028\u202e"',
    );
    const file = join(temp.dir, 'escape.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const result = await cli(['import', join(temp.dir, 'escape.db'), file, '--migrate']);
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split(/[\n\u2028]/)).toHaveLength(1);
    expect(result.stderr).toContain('"t1\\u009b2K\\u2028\\u202e"');
  });

  it('imports any export of a file, however long its lines; from a pipe, says which flag reads a longer line', async () => {
    // A row carrying a file of 50 MB: over importThread's default of 64 Mi characters.
    const store = createChunkStore({ sqlite: join(temp.dir, 'big-source.db') });
    await store.migrate();
    const pdf = 'A'.repeat(65 * 1024 * 1024);
    await store.appendTurn('big', [
      { turnId: 't1', step: 0, role: 'user', type: 'text', data: { text: 'Hello' } },
      { turnId: 't1', step: 0, role: 'assistant', type: 'text', data: { text: 'Hi' } },
    ]);
    await store.appendTurn('big', [
      {
        turnId: 't2',
        step: 0,
        role: 'user',
        type: 'file',
        data: { mediaType: 'application/pdf', data: pdf },
      },
      { turnId: 't2', step: 0, role: 'assistant', type: 'text', data: { text: 'Read it' } },
    ]);
    await store.close();
    const file = join(temp.dir, 'big.jsonl');
    expect(
      (await cli(['export', join(temp.dir, 'big-source.db'), 'big', '--out', file])).code,
    ).toBe(0);
    const imported = await cli(['import', join(temp.dir, 'big.db'), file, '--migrate']);
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toContain('imported 2 turn(s), 4 row(s) into thread "big"');

    // From a pipe the limit is 64 Mi characters unless raised: here a lower one, below a row of t2.
    const lines = (await cli(['export', source, 'trip'])).stdout.trimEnd().split('\n');
    const t2 = lines.findIndex((line) => line.includes('"kind":"turn","turnId":"t2"'));
    const limit = Math.max(...lines.slice(0, t2).map((line) => line.length));
    const over = lines.findIndex((line) => line.includes('You are welcome.'));
    lines[over] = (lines[over] as string).replace('You are welcome.', 'x'.repeat(limit));
    const longFile = join(temp.dir, 'long.jsonl');
    writeFileSync(longFile, `${lines.join('\n')}\n`);
    const piped = (flags: string) =>
      cli(
        [],
        `cat "${longFile}" | "${process.execPath}" "${join(ROOT, 'dist/cli.js')}" import "${join(temp.dir, 'limit.db')}" - --migrate ${flags}`,
      );
    const stopped = await piped(`--max-line-length ${limit}`);
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toBe(
      `chunklog import: importThread: line ${over + 1}: the line is longer than ${limit} characters (--max-line-length). The 1 turn(s) before it are in thread "trip" (the last: "t1"); import it again with a larger --max-line-length and --append to add the rest (turns already there are skipped).\n`,
    );
    const rest = await piped(`--max-line-length ${(lines[over] as string).length} --append`);
    expect(rest.stderr).toBe('');
    expect(rest.stdout).toContain('imported 4 turn(s)');
    expect(rest.stdout).toContain('1 turn(s) were there already');
    const bad = await cli(['import', source, '-', '--max-line-length', '1e6']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^chunklog import: --max-line-length must be a positive whole number/,
    );
  });

  it('fails with exit code 1 and one line naming a file that cannot be opened, without the usage', async () => {
    const nope = join(temp.dir, 'nope.db');
    const jsonl = join(temp.dir, 'nope.jsonl');
    const runs = {
      inspect: await cli(['inspect', nope, '--port', '0']),
      export: await cli(['export', nope, 'trip']),
      import: await cli(['import', nope, join(temp.dir, 'missing.jsonl')]),
      importFile: await cli(['import', source, jsonl]),
      importTarget: await cli(['import', nope, '-']),
      keyModule: await cli(['export', source, 'trip', '--key-module', 'nope-keys.mjs']),
    };
    expect(runs.inspect.stderr).toBe(`chunklog inspect: cannot open ${nope}: no such file\n`);
    expect(runs.export.stderr).toBe(`chunklog export: cannot open ${nope}: no such file\n`);
    expect(runs.import.stderr).toBe(
      `chunklog import: cannot open ${join(temp.dir, 'missing.jsonl')}: no such file\n`,
    );
    expect(runs.importFile.stderr).toBe(`chunklog import: cannot open ${jsonl}: no such file\n`);
    expect(runs.importTarget.stderr).toBe(
      `chunklog import: cannot open ${nope}: no such file (pass --migrate to create a store there)\n`,
    );
    expect(runs.keyModule.stderr).toBe(
      'chunklog export: cannot open nope-keys.mjs: no such file (--key-module)\n',
    );
    for (const [name, run] of Object.entries(runs)) {
      expect(run.code, name).toBe(1);
      expect(run.stdout, name).toBe('');
    }
    expect(existsSync(nope)).toBe(false);
  });

  it('says plainly that a thread has no stored rows, and why a running one may have none', async () => {
    const out = join(temp.dir, 'running.jsonl');
    const run = await cli(['export', source, 'running', '--out', out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'chunklog export: thread "running" has no stored rows: it was never created, was deleted, or its first turn is still running. ' +
        "A running turn is stored only when it ends under a session's default durability: 'turn'; with durability: 'step' its rows are stored as it runs. Nothing was written.\n",
    );
    expect(existsSync(out)).toBe(false);
  });

  it('says what is wrong with the arguments, once, with the usage', async () => {
    const none = await cli([]);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('chunklog export <db> <threadId>');
    const unknown = await cli(['exprot']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('chunklog: unknown command exprot');
    const missing = await cli(['export', source]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /^chunklog export: give a store and a thread id\n\nUsage: chunklog export/,
    );
    const option = await cli(['import', source, 'x.jsonl', '--thread', 'a']);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/^chunklog import: Unknown option '--thread'/);
    const noThread = await cli(['export', source, 'nope', '--out', join(temp.dir, 'nope.jsonl')]);
    expect(noThread.code).toBe(1);
    expect(noThread.stderr).toMatch(/^chunklog export: .*nope/);
    expect(existsSync(join(temp.dir, 'nope.jsonl'))).toBe(false);
    const help = await cli(['import', '--help']);
    expect(help.stdout).toContain('Usage: chunklog import <db> <file.jsonl | ->');
  });

  it('refuses a conversation with versions without --path, writing nothing; --path active exports what the reader sees', async () => {
    const db = join(temp.dir, 'versions.db');
    const store = createChunkStore({ sqlite: db });
    await store.migrate();
    const qa = (turnId: string, text: string) => [
      { turnId, step: 0, role: 'user' as const, type: 'text' as const, data: { text } },
      { turnId, step: 0, role: 'assistant' as const, type: 'text' as const, data: { text: 'ok' } },
    ];
    await store.appendTurn('chat', qa('t1', 'one'));
    await store.appendTurn('chat', qa('t2', 'two'));
    await store.addAlternative('chat', { turnId: 't2', newThreadId: 'edit-1' });
    await store.appendTurn('edit-1', qa('t2b', 'two, edited'));
    const seen = (await store.getRows(await store.activePath('chat'))).map(
      (row) => `${row.seq} ${row.turnId}`,
    );
    await store.close();

    const file = join(temp.dir, 'versions.jsonl');
    for (const out of [[], ['--out', file]]) {
      const refused = await cli(['export', db, 'chat', ...out]);
      expect(refused).toMatchObject({ code: 1, stdout: '' });
      expect(refused.stderr).toMatch(
        /^chunklog export: exportThread: conversation "chat" has versions/,
      );
      expect(refused.stderr).toContain('"edit-1"; the active path is "edit-1"');
      expect(refused.stderr).toContain('pass --path active for the path the reader sees');
      expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(temp.dir).filter((name) => name.includes('.partial-'))).toEqual([]);
    const bad = await cli(['export', db, 'chat', '--path', 'all']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^chunklog export: --path must be active or thread, not all\n\nUsage:/,
    );

    const active = await cli(['export', db, 'chat', '--path', 'active', '--out', file]);
    expect(active.stderr).toMatch(
      /^chunklog export: thread "chat" \(2 turns, 4 rows\) written to /,
    );
    const own = await cli(['export', db, 'chat', '--path', 'thread']);
    expect(own.code).toBe(0);
    expect(exportedRows(own.stdout).map((row) => (row as { turnId: string }).turnId)).toEqual([
      't1',
      't1',
      't2',
      't2',
    ]);
    const target = join(temp.dir, 'versions-copy.db');
    const imported = await cli(['import', target, file, '--migrate', '--thread-id', 'copy']);
    expect(imported.stderr).toBe('');
    const copy = createChunkStore({ sqlite: target });
    try {
      expect((await copy.getRows('copy')).map((row) => `${row.seq} ${row.turnId}`)).toEqual(seen);
    } finally {
      await copy.close();
    }
  });

  it('imports into PostgreSQL and exports the same lines back', async (context) => {
    if (!(await postgresAvailable())) return context.skip();
    const harness = createHarness('postgres');
    harnesses.push(harness);
    const file = join(temp.dir, 'pg.jsonl');
    await cli(['export', source, 'trip', '--out', file]);
    const prefix = ['--prefix', harness.prefix];
    const imported = await cli(['import', POSTGRES_URL, file, '--migrate', ...prefix]);
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toContain('into thread "trip"; every row kept its seq');
    const back = await cli(['export', POSTGRES_URL, 'trip', ...prefix]);
    // Every line but the header (the new thread's createdAt) and the running turn (now
    // interrupted), as values: PostgreSQL's jsonb keeps a row's data, not the order of its keys.
    const body = (text: string) =>
      text
        .split('\n')
        .slice(1)
        .filter((line) => line !== '' && !line.includes('"turnId":"t5"'))
        .map((line) => JSON.parse(line));
    expect(body(back.stdout)).toEqual(body(readFileSync(file, 'utf8')));
  });
});
