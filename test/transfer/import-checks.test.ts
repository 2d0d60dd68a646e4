// importThread at its trust boundary: every line is checked, a bad one is an `invalid-export`
// error naming its line and what was stored before it; a turn is stored whole or not at all; a
// file cut short or of another version is refused; options and inputs are checked.
import { afterEach, describe, expect, it } from 'vitest';
import { type ChunkStore, createChunkStore } from '../../src/store/index.js';
import { type NamingImportThreadOptions, OPTION_NAMING } from '../../src/transfer/import-thread.js';
import * as transfer from '../../src/transfer/index.js';
import { exportThread, importThread } from '../../src/transfer/index.js';
import { rejected } from '../support/chunklog-error.js';
import { collect, seedTransferThread } from './support.js';

const stores: ChunkStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

async function memory(): Promise<ChunkStore> {
  const store = createChunkStore({ sqlite: ':memory:' });
  stores.push(store);
  await store.migrate();
  return store;
}

/** The seeded thread's export, as lines (no trailing newline). */
async function exported(): Promise<string[]> {
  const store = await memory();
  await seedTransferThread(store, 'trip');
  return (await collect(exportThread(store, 'trip'))).trimEnd().split('\n');
}

const lineOf = (lines: readonly string[], needle: string) =>
  lines.findIndex((line) => line.includes(needle));

describe('importThread', () => {
  it('refuses a bad row with its line number, keeping the turns before it and nothing of its own', async () => {
    const lines = await exported();
    const at = lineOf(lines, '"turnId":"t2","step":0,"role":"assistant"');
    lines[at] = (lines[at] as string).replace('"role":"assistant"', '"role":"robot"');
    const target = await memory();
    const error = await rejected(importThread(target, lines.join('\n')));
    expect(error.code).toBe('invalid-export');
    expect(error.path).toEqual(['line', at + 1, 'role']);
    expect(error.message).toContain(`line ${at + 1}: not a valid row line at role`);
    expect(error.message).toContain(
      'The 1 turn(s) before it are in thread "trip" (the last: "t1")',
    );
    expect(error.value).toEqual({ line: at + 1, importedTurns: 1, lastImportedTurnId: 't1' });
    expect(await target.hasTurn('trip', 't1')).toBe(true);
    expect(await target.hasTurn('trip', 't2')).toBe(false);
    // Fixed, the file goes in with `append`: t1 is skipped, the rest is stored.
    const fixed = await exported();
    const rest = await importThread(target, fixed.join('\n'), { onExistingThread: 'append' });
    expect(rest).toMatchObject({ turns: 4, skippedTurns: 1, sameSeqs: true });
  });

  it('names what is wrong with each kind of bad line', async () => {
    const lines = await exported();
    const t2 = lineOf(lines, '"kind":"turn","turnId":"t2"');
    const row = lineOf(lines, '"kind":"row","seq":3,');
    const cases: Array<[string, (l: string[]) => void, number, string]> = [
      ['not JSON', (l) => l.splice(row, 1, '{"kind":"row",'), row + 1, 'not JSON'],
      [
        'an unknown kind',
        (l) => l.splice(row, 0, '{"kind":"note"}'),
        row + 1,
        'expected an object with "kind"',
      ],
      [
        'an unknown key',
        (l) => {
          l[row] = (l[row] as string).replace('{"kind":"row",', '{"kind":"row","extra":1,');
        },
        row + 1,
        'not a valid row line',
      ],
      [
        "an unknown field in a row's data, which the import would drop",
        (l) => {
          l[row] = (l[row] as string).replace('"data":{', '"data":{"extra":1,');
        },
        row + 1,
        'not a valid row line at data.extra: not a field this chunklog knows',
      ],
      [
        "an unknown field in a turn's usage, which the import would drop",
        (l) => {
          const at = lineOf(l, '"inputTokens":1200');
          l[at] = (l[at] as string).replace('"inputTokens":1200', '"inputTokens":1200,"extra":1');
        },
        lineOf(lines, '"inputTokens":1200') + 1,
        'not a valid turn line at usage.0.usage.extra',
      ],
      [
        'a seq going back',
        (l) => {
          l[row] = (l[row] as string).replace('"seq":3,', '"seq":1,');
        },
        row + 1,
        'seq 1 is not above the previous row',
      ],
      [
        'a row of another turn',
        (l) => {
          l[row] = (l[row] as string).replace('"turnId":"t1"', '"turnId":"t9"');
        },
        row + 1,
        'is not the turn\'s ("t1")',
      ],
      [
        'a turn twice',
        (l) => {
          l[t2] = (l[t2] as string).replace('"t2"', '"t1"');
        },
        t2 + 1,
        'turn "t1" appears twice',
      ],
      [
        'a bad status',
        (l) => {
          l[t2] = (l[t2] as string).replace('"completed"', '"done"');
        },
        t2 + 1,
        'not a valid turn line at status',
      ],
      [
        'a bad time',
        (l) => {
          l[row] = (l[row] as string).replace(/"createdAt":"[^"]+"/, '"createdAt":"yesterday"');
        },
        row + 1,
        'at createdAt',
      ],
      ['a second header', (l) => l.splice(row, 0, l[0] as string), row + 1, 'a second header'],
      [
        'a line after the end',
        (l) => l.push('{"kind":"end","turns":0,"rows":0}'),
        lines.length + 1,
        'a line after the end line',
      ],
      [
        'wrong counts',
        (l) => {
          l[l.length - 1] = '{"kind":"end","turns":5,"rows":2}';
        },
        lines.length,
        'the end line counts 5 turns and 2 rows',
      ],
    ];
    for (const [what, change, line, text] of cases) {
      const copy = [...lines];
      change(copy);
      const target = await memory();
      const error = await rejected(importThread(target, copy.join('\n')));
      expect({ what, code: error.code, line: error.path?.[1] }).toEqual({
        what,
        code: 'invalid-export',
        line,
      });
      expect(error.message, what).toContain(text);
    }
  });

  it('refuses another format or version on the first line, before writing anything', async () => {
    const lines = await exported();
    const target = await memory();
    const newer = [(lines[0] as string).replace('"version":1', '"version":2'), ...lines.slice(1)];
    const version = await rejected(importThread(target, newer.join('\n')));
    expect(version.code).toBe('invalid-export');
    expect(version.path).toEqual(['line', 1, 'version']);
    expect(version.message).toContain(
      'version 2 of chunklog-thread is not one this chunklog reads',
    );
    const other = await rejected(importThread(target, '{"hello":"world"}\n'));
    expect(other.message).toContain('not a chunklog thread export');
    const empty = await rejected(importThread(target, '\n\n'));
    expect(empty.message).toContain('the input is empty');
    expect((await target.listThreads()).threads).toEqual([]);
  });

  it("refuses an id the store would refuse at its line, by the store's one rule, before writing anything", async () => {
    const lines = await exported();
    const t1 = lineOf(lines, '"kind":"turn","turnId":"t1"');
    const long = 'é'.repeat(128); // 256 UTF-8 bytes
    const cases: Array<[string, string, string, readonly string[], string]> = [
      ['"turnId":"t1"', '"turnId":"t\\u0001"', 'turn', ['turnId'], 'a turn id must not contain'],
      ['"turnId":"t1"', `"turnId":"${long}"`, 'turn', ['turnId'], 'at most 255 UTF-8 bytes'],
      ['"id":"trip"', '"id":"a\\nb"', 'header', ['thread', 'id'], 'a thread id must not contain'],
      ['"id":"trip"', `"id":"${long}"`, 'header', ['thread', 'id'], 'at most 255 UTF-8 bytes'],
      ['"ownerId":"ada"', '"ownerId":"\\u001b[2K"', 'header', ['thread', 'ownerId'], 'owner id'],
    ];
    for (const [from, to, kind, path, text] of cases) {
      // A turn id changes on its turn line and its rows, the header's on the first line.
      const at = kind === 'header' ? 0 : t1;
      const copy = lines.map((line, i) =>
        kind === 'turn' || i === 0 ? line.replaceAll(from, to) : line,
      );
      expect(copy[at]).not.toBe(lines[at]);
      const target = await memory();
      const error = await rejected(importThread(target, copy.join('\n')));
      expect({ to, code: error.code, path: error.path }).toEqual({
        to,
        code: 'invalid-export',
        path: ['line', at + 1, ...path],
      });
      expect(error.message).toContain(`line ${at + 1}: not a valid ${kind} line`);
      expect(error.message).toContain(text);
      expect(error.message).toContain('Nothing was imported.');
      expect((await target.listThreads()).threads).toEqual([]);
    }
  });

  it('does not store the last turn of a file cut short', async () => {
    const lines = await exported();
    const cut = lines.slice(0, lineOf(lines, '"kind":"turn","turnId":"t3"') + 2); // t3's first row
    const target = await memory();
    const error = await rejected(importThread(target, `${cut.join('\n')}\n`));
    expect(error.code).toBe('invalid-export');
    expect(error.message).toContain('the export ends without its end line');
    expect(error.message).toContain('turn "t3" was not written');
    expect(await target.hasTurn('trip', 't2')).toBe(true);
    expect(await target.hasTurn('trip', 't3')).toBe(false);
  });

  it('reads text in any chunks: bytes split inside a character, a ReadableStream, lines with CRLF', async () => {
    const text = (await exported()).join('\r\n');
    const bytes = new TextEncoder().encode(text);
    const at = bytes.indexOf(0xe2); // the first byte of a multi-byte character (the em dash)
    expect(at).toBeGreaterThan(0);
    const split = [bytes.slice(0, at + 1), bytes.slice(at + 1)];
    const a = await importThread(await memory(), split);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 1000) controller.enqueue(bytes.slice(i, i + 1000));
        controller.close();
      },
    });
    const b = await importThread(await memory(), stream);
    expect(a).toEqual(b);
    expect(a.turns).toBe(5);
    const invalid = await rejected(importThread(await memory(), [new Uint8Array([0xff, 0x0a])]));
    expect(invalid.message).toContain('line 1: the bytes are not UTF-8 text');
    const long = await rejected(importThread(await memory(), text, { maxLineLength: 100 }));
    expect(long.message).toContain(
      'line 1: the line is longer than 100 characters (maxLineLength). Nothing was imported: import it again with a larger maxLineLength.',
    );
  });

  it('reads a line over many chunks in linear time (a row carrying a large file)', async () => {
    const lines = await exported();
    // The header, t1 and t2 (its last row holding 4 Mi characters), and their end line.
    const kept = lines.slice(0, lineOf(lines, '"kind":"turn","turnId":"t3"'));
    const big = lineOf(kept, '"turnId":"t2","step":0,"role":"assistant"');
    kept[big] = (kept[big] as string).replace('You are welcome.', 'x'.repeat(4 * 1024 * 1024));
    const rows = kept.filter((line) => line.startsWith('{"kind":"row"')).length;
    const text = `${kept.join('\n')}\n{"kind":"end","turns":2,"rows":${rows}}\n`;
    const chunks: string[] = [];
    for (let i = 0; i < text.length; i += 1000) chunks.push(text.slice(i, i + 1000));
    const started = performance.now();
    const result = await importThread(await memory(), chunks);
    // Linear, this takes well under a second; joining the line again at each chunk took minutes.
    expect(performance.now() - started).toBeLessThan(5000);
    expect(result).toMatchObject({ turns: 2, rows });
  });

  it('checks its arguments', async () => {
    const store = await memory();
    const cases: Array<[Promise<unknown>, string]> = [
      [importThread(store, 42 as never), 'input'],
      [importThread(store, '', { threadId: '' }), 'threadId'],
      [importThread(store, '', { onExistingThread: 'merge' as never }), 'onExistingThread'],
      [importThread(store, '', { maxLineLength: 0 }), 'maxLineLength'],
      [importThread(store, '', { thread: 'x' } as never), 'thread'],
      [importThread({} as never, ''), 'store'],
    ];
    for (const [call, option] of cases) {
      const error = await rejected(call);
      expect({ code: error.code, option: error.option }).toEqual({
        code: 'invalid-option',
        option,
      });
    }
    expect(() => exportThread(store, '')).toThrow(/threadId/);
    expect(() => exportThread(store, 'x', { pageSize: 1001 })).toThrow(/pageSize/);
    const missing = await rejected(collect(exportThread(store, 'nope')));
    expect(missing.code).toBe('thread-not-found');
  });

  it("names its options in its messages, or the command line's flags given by the internal symbol-keyed option", async () => {
    const text = (await exported()).join('\n');
    const store = await memory();
    await importThread(store, text);
    const own = await rejected(importThread(store, text));
    expect(own.code).toBe('thread-exists');
    expect(own.message).toContain(
      "Import under another id (threadId), or pass onExistingThread: 'append' to add the turns it does not hold",
    );
    // `chunklog import`'s wording: a symbol key, which the options check does not take for an
    // unknown option (it reads the string keys only).
    const flags: NamingImportThreadOptions = {
      [OPTION_NAMING]: {
        threadId: '--thread-id',
        append: '--append',
        maxLineLength: '--max-line-length',
      },
    };
    const named = await rejected(importThread(store, text, flags));
    expect(named.code).toBe('thread-exists');
    expect(named.message).toContain(
      'Import under another id (--thread-id), or pass --append to add the turns it does not hold',
    );
    // An unknown string key is refused still; the key is not public.
    const unknown = await rejected(importThread(store, text, { names: {} } as never));
    expect({ code: unknown.code, option: unknown.option }).toEqual({
      code: 'invalid-option',
      option: 'names',
    });
    expect(Object.values(transfer)).not.toContain(OPTION_NAMING);
  });
});
