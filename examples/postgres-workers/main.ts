// `npm run example:postgres-workers`: several worker processes serve many threads on one
// PostgreSQL database. One worker is killed in the middle of a turn, another dies right after
// storing a turn and before saying so. At the end, every thread holds each of its turns exactly
// once, in order, with dense seqs, and every answer saw the whole history before it.
//
//   npm run example:postgres-workers -- [--url postgres://…] [--workers 4] [--threads 6]
//                                       [--turns 5] [--keep]
//
// The tables get a fresh prefix per run (`pgw_<id>_`) and are dropped at the end (--keep keeps them).
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createChunkStore, guardPgPool } from 'chunklog/store';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { exitQuietlyOnClosedStdout } from '../shared/closed-pipe.js';
import { createQueue, enqueue, jobsTable, release } from './queue.js';

const { values } = parseArgs({
  options: {
    url: {
      type: 'string',
      default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    },
    workers: { type: 'string', default: '4' },
    threads: { type: 'string', default: '6' },
    turns: { type: 'string', default: '5' },
    keep: { type: 'boolean', default: false },
  },
});
const workers = Math.max(2, Number(values.workers));
const threads = Number(values.threads);
const turns = Number(values.turns);
const prefix = `pgw_${Date.now().toString(36)}_`;
exitQuietlyOnClosedStdout();
const print = (line = '') => process.stdout.write(`${line}\n`);

const pool = guardPgPool(
  new pg.Pool({ connectionString: values.url, max: 4, connectionTimeoutMillis: 5_000 }),
);
pool.on('error', () => {}); // an idle connection closed by a restart: the pool makes another
const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
const store = createChunkStore({ db }, { tablePrefix: prefix });

async function main(): Promise<boolean> {
  await store.migrate();
  await createQueue(db, prefix);
  const jobs = [];
  for (let t = 1; t <= threads; t++) {
    for (let n = 1; n <= turns; n++) {
      jobs.push({
        id: `thread-${t}/turn-${n}`,
        thread_id: `thread-${t}`,
        position: n,
        text: `question ${n} of thread ${t}`,
      });
    }
  }
  await enqueue(db, prefix, jobs);
  print(`${jobs.length} turns queued on ${threads} threads; ${workers} workers; tables ${prefix}*`);

  // The worker that runs thread-2's second turn dies right after storing it, before marking its
  // job done; the one that runs thread-4's second turn is killed in the middle of it (it says
  // when it is there: nothing here depends on timing).
  const crashJob = 'thread-2/turn-2';
  const hangJob = `thread-${Math.min(4, threads)}/turn-2`;
  const running = new Map<string, ChildProcess>();
  const exits: Promise<void>[] = [];
  const retried = new Set<string>();
  let killed = '';
  for (let w = 1; w <= workers; w++) {
    const name = `w${w}`;
    // `node --import tsx` (not the tsx command, which runs the script in a child process of its
    // own): a signal sent to this process reaches the worker itself.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'worker.ts'), values.url, prefix, name],
      {
        env: { ...process.env, CHUNKLOG_CRASH_AFTER_STORE: crashJob, CHUNKLOG_HANG_IN: hangJob },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    running.set(name, child);
    let buffered = '';
    child.stdout?.on('data', (data: Buffer) => {
      buffered += data.toString();
      let end = buffered.indexOf('\n');
      while (end !== -1) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        end = buffered.indexOf('\n');
        print(`  ${line}`);
        const who = line.split(' ')[0] as string;
        const attempt = /\(attempt (\d+)\)/.exec(line);
        if (line.includes(' start ') && attempt && Number(attempt[1]) > 1) {
          retried.add(line.split(' ')[2] as string);
        }
        if (line.includes(` hanging in ${hangJob}`) && killed === '') {
          killed = who;
          print(`  ** killing ${killed} (SIGKILL) in the middle of a turn`);
          running.get(killed)?.kill('SIGKILL');
        }
      }
    });
    exits.push(
      new Promise((resolve) =>
        child.on('close', (code) => {
          // A worker that died: its job goes to another worker now, not when its queue lease
          // expires (its turn still waits for the dead session's thread lease in the store).
          if (code !== 0) void release(db, prefix, name).finally(resolve);
          else resolve();
        }),
      ),
    );
  }
  await Promise.all(exits);
  return verify(jobs.length, retried.size);
}

/** Every thread: each turn once, in queue order, dense seqs, answers that saw the whole history. */
async function verify(expected: number, retried: number): Promise<boolean> {
  print('\nthread      turns  expected  duplicates  seqs       history');
  let stored = 0;
  let ok = true;
  for (let t = 1; t <= threads; t++) {
    const threadId = `thread-${t}`;
    const rows = await store.getRows(threadId);
    const turnIds = [...new Set(rows.map((row) => row.turnId))];
    const runs = rows.filter((row, i) => i === 0 || rows[i - 1]?.turnId !== row.turnId).length;
    const duplicates = runs - turnIds.length; // a turn id in two places
    const dense = rows.every((row, i) => row.seq === i + 1);
    const inOrder = turnIds.every((id, i) => id === `${threadId}/turn-${i + 1}`);
    const messages = await store.getMessages(threadId);
    const answers = messages.filter((m) => m.role === 'assistant');
    const history = answers.every((message, i) =>
      message.chunks.some(
        (c) => c.type === 'text' && c.text.endsWith(`: ${i} earlier user messages.`),
      ),
    );
    const good = turnIds.length === turns && duplicates === 0 && dense && inOrder && history;
    ok &&= good;
    stored += turnIds.length;
    print(
      `${threadId.padEnd(11)} ${String(turnIds.length).padStart(5)}  ${String(turns).padStart(8)}  ` +
        `${String(duplicates).padStart(10)}  ${(dense ? `1–${rows.length}` : 'GAPS').padEnd(9)}  ` +
        `${history && inOrder ? 'complete' : 'WRONG'}`,
    );
  }
  const attempts = await sql<{ done: number }>`
    select count(*) filter (where state = 'done')::int as done
    from ${jobsTable(prefix)}`.execute(db);
  const { done = 0 } = attempts.rows[0] ?? {};
  print(
    `\n${stored} of ${expected} turns stored, each exactly once; ${done} jobs done, ` +
      `${retried} of them run again (a worker died, or the database went away).`,
  );
  print(ok ? 'no turn lost or duplicated' : 'FAILED: a turn was lost, duplicated or out of order');
  return ok && stored === expected && done === expected;
}

async function cleanup(): Promise<void> {
  if (values.keep) {
    print(`tables kept: ${prefix}*`);
  } else {
    // Every table of the store (its names, whatever migrations added) and the job queue's.
    for (const table of [...Object.values(store.tables), `${prefix}jobs`]) {
      await sql`drop table if exists ${sql.table(table)} cascade`.execute(db);
    }
  }
  await store.close();
  await db.destroy();
}

let ok = false;
try {
  ok = await main();
} finally {
  await cleanup();
}
process.exitCode = ok ? 0 : 1;
