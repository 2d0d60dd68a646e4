// `npm run example:scripts -- <command>`: export a thread to JSONL, import it back, and inspect
// a store from the command line. A store is an SQLite file, or a postgres:// or mysql:// URL.
//
//   threads  <store>                         the threads, most recently active first
//   pages    <store> <thread> [--limit n]    the thread page by page, newest first (keyset)
//   turn     <store> <thread> <turnId>       the rows of one turn
//   messages <store> <thread>                the model messages rebuilt from the thread
//   export   <store> <thread> [file.jsonl] [--limit n]
//                                            the thread as JSONL (to stdout without a file),
//                                            read n rows a page (default 500)
//   import   <store> <file.jsonl> [thread]   a JSONL export into a thread (default: its own id)
//   delete   <store> <thread>                 deletes a thread and its rows
//   tour                                     all of the above on a seeded .tmp/scripts.db
import { createWriteStream, rmSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import type { ImportThreadResult } from 'chunklog/transfer';
import { exitQuietlyOnClosedStdout } from '../shared/closed-pipe.js';
import { openStore } from '../shared/open-store.js';
import { printPages } from '../shared/print.js';
import { paint } from '../shared/terminal.js';
import { printNextInput, printThreads, printTurn } from './inspect.js';
import { exportThread, importThread } from './jsonl.js';
import { seedExampleThread } from './seed.js';

exitQuietlyOnClosedStdout();
const print = (line: string) => process.stdout.write(`${line}\n`);
const p = paint();

const usage = `usage: npm run example:scripts -- <command> [arguments]
  threads  <store>
  pages    <store> <thread> [--limit n]
  turn     <store> <thread> <turnId>
  messages <store> <thread>
  export   <store> <thread> [file.jsonl] [--limit n]
  import   <store> <file.jsonl> [thread]
  delete   <store> <thread>
  tour
<store> is an SQLite file path, or a postgres:// or mysql:// URL.`;

async function main(argv: string[]): Promise<void> {
  const limitAt = argv.indexOf('--limit');
  const limit = limitAt === -1 ? undefined : Number(argv.splice(limitAt, 2)[1]);
  const [command = 'tour', target, ...rest] = argv;
  if (command === 'tour') return tour();
  if (command === 'help' || command === '--help' || target === undefined) {
    print(usage);
    if (command !== 'help' && command !== '--help') process.exitCode = 2;
    return;
  }
  const { store, close } = await openStore(target);
  try {
    const [a, b] = rest;
    switch (command) {
      case 'threads':
        await printThreads(store, print);
        break;
      case 'pages':
        await printPages(store, need(a, 'thread'), print, p, limit ?? 5);
        break;
      case 'turn':
        await printTurn(store, need(a, 'thread'), need(b, 'turnId'), print, p);
        break;
      case 'messages':
        await printNextInput(store, need(a, 'thread'), print, p);
        break;
      case 'export': {
        const out = b === undefined ? process.stdout : createWriteStream(need(b, 'file'));
        const { turns, rows } = await exportThread(store, need(a, 'thread'), out, limit);
        if (out !== process.stdout) {
          out.end();
          await finished(out);
          print(`exported ${rows} rows (${turns} turn(s)) of ${a} to ${b}`);
        }
        break;
      }
      case 'import': {
        print(imported(await importThread(store, need(a, 'file'), b)));
        break;
      }
      case 'delete':
        print((await store.deleteThread(need(a, 'thread'))) ? `deleted ${a}` : `no thread ${a}`);
        break;
      default:
        print(usage);
        process.exitCode = 2;
    }
  } finally {
    await close();
  }
}

function imported(result: ImportThreadResult): string {
  const skipped = result.skippedTurns > 0 ? `, ${result.skippedTurns} turn(s) already there` : '';
  const seqs = result.sameSeqs ? ', every row kept its seq' : '';
  return `imported ${result.turns} turn(s) into ${result.threadId}: ${result.rows} row(s) written${skipped}${seqs}`;
}

function need(value: string | undefined, name: string): string {
  if (value === undefined) throw new Error(`missing <${name}>\n${usage}`);
  return value;
}

/** Seeds a store, inspects it, exports a thread and imports it back twice. */
async function tour(): Promise<void> {
  const file = '.tmp/scripts.db';
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  const { store, close } = await openStore(file);
  try {
    await seedExampleThread(store, 'plan-example');
    const step = (title: string) => print(`\n${p.bold(`── ${title}`)}`);

    step(`threads ${file}`);
    await printThreads(store, print);
    step(`pages ${file} plan-example --limit 5`);
    await printPages(store, 'plan-example', print, p, 5);
    step(`turn ${file} plan-example turn-1`);
    await printTurn(store, 'plan-example', 'turn-1', print, p);
    step(`messages ${file} plan-example`);
    await printNextInput(store, 'plan-example', print, p);

    step(`export ${file} plan-example .tmp/plan-example.jsonl --limit 5`);
    const out = createWriteStream('.tmp/plan-example.jsonl');
    const { turns, rows } = await exportThread(store, 'plan-example', out, 5);
    out.end();
    await finished(out);
    print(`exported ${rows} rows (${turns} turn(s)), read forwards 5 rows a page (getChunksAfter)`);

    for (const round of ['first', 'second']) {
      step(`import ${file} .tmp/plan-example.jsonl copy (${round} time)`);
      print(imported(await importThread(store, '.tmp/plan-example.jsonl', 'copy')));
    }
    const [original, copy] = await Promise.all([
      store.getRows('plan-example'),
      store.getRows('copy'),
    ]);
    // Everything but the thread id, the times included.
    const strip = (rows: typeof original) => rows.map(({ threadId: _t, ...r }) => r);
    const same = JSON.stringify(strip(original)) === JSON.stringify(strip(copy));
    print(
      same ? p.green('the copy holds the same rows, times included') : p.red('the copy differs'),
    );
  } finally {
    await close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
