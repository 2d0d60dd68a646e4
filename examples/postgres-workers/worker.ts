// One worker process: leases jobs from the queue and runs each as a turn of an agent session
// over the shared PostgreSQL store, until no job is left. Started by main.ts.
//
//   tsx worker.ts <database url> <table prefix> <worker name>
//
// CHUNKLOG_CRASH_AFTER_STORE=<job id> makes the worker that first runs that job exit right after
// its turn is stored and before it marks the job done: the worst moment to die.
// CHUNKLOG_HANG_IN=<job id> makes the worker that first runs that job stop in the middle of its
// turn (the model never answers) and say so: main.ts kills it there.
// The database may go away and come back (a restart): a worker keeps trying, and a job whose
// turn could not be stored is given up and run again.
import { setTimeout as sleep } from 'node:timers/promises';
import { createAgentSession } from 'chunklog/session';
import { createChunkStore, guardPgPool } from 'chunklog/store';
import { createScriptedModel, type ScriptEntry } from 'chunklog/testing';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { complete, type Job, lease, RENEW_MS, release, renew } from './queue.js';

const [url = '', prefix = '', worker = 'worker'] = process.argv.slice(2);
const crashAfter = process.env.CHUNKLOG_CRASH_AFTER_STORE;
const hangIn = process.env.CHUNKLOG_HANG_IN;
const log = (text: string) => process.stdout.write(`${worker} ${text}\n`);

// A connection attempt that gets no answer (the database restarting) fails after 5 s.
const pool = guardPgPool(
  new pg.Pool({ connectionString: url, max: 3, connectionTimeoutMillis: 5_000 }),
);
// An idle connection the server closes (a restart) is reported here; the pool makes a new one.
pool.on('error', () => {});
const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
const store = createChunkStore({ db }, { tablePrefix: prefix });

/** The model: says how many earlier user messages of the thread it was sent. */
function modelFor(job: Job) {
  const answer: ScriptEntry = (call) => {
    const users = call.prompt.filter((message) => message.role === 'user').length;
    const hang = job.id === hangIn && job.attempts === 1;
    if (hang) log(`hanging in ${job.id}`);
    return {
      parts: [
        { type: 'reasoning', text: `Job ${job.id}, attempt ${job.attempts}.` },
        hang ? { type: 'wait', until: new Promise<void>(() => {}) } : { type: 'delay', ms: 120 },
        { type: 'text', text: `Answer to "${job.text}": ${users - 1} earlier user messages.` },
      ],
    };
  };
  return createScriptedModel([answer], { modelId: `scripted-${worker}`, delayMs: 5 });
}

async function run(job: Job): Promise<void> {
  log(`start ${job.id} (attempt ${job.attempts})`);
  // A retried job may have been stored by the attempt that died before marking it done: one
  // index lookup says so, and the model is not run again. (appendTurn would not store the turn
  // twice either, but the model call would be paid for and thrown away.)
  if (await store.hasTurn(job.thread_id, job.id)) {
    log(`stored ${job.id}: it was already stored by an earlier attempt, not run again`);
    await complete(db, prefix, worker, job.id);
    return;
  }
  // On PostgreSQL the session also holds the store's thread lease (its default): the queue orders
  // a thread's turns, the lease fences their writes. A killed worker's lease holds the thread
  // until it expires (30 s), so a retried job of that thread waits for it.
  const session = createAgentSession({
    store,
    threadId: job.thread_id,
    model: modelFor(job),
    maxRetries: 0,
  });
  // Keep the lease while the turn runs.
  const heartbeat = setInterval(() => {
    void renew(db, prefix, worker, job.id).catch(() => {});
  }, RENEW_MS);
  try {
    const turn = session.send({ text: job.text, turnId: job.id });
    const result = await turn.result.catch(() => undefined);
    if (result?.outcome !== 'completed') {
      // Not stored (the database went away): give the job up; it runs again, once stored.
      log(`gave up ${job.id} (attempt ${job.attempts}): its turn could not be stored`);
      await release(db, prefix, worker, job.id).catch(() => {});
      return;
    }
    log(`stored ${job.id} (${result.rows.length} rows, ${result.outcome})`);
    if (job.id === crashAfter && job.attempts === 1) {
      log(`crashing after storing ${job.id}, before marking it done`);
      process.exit(137);
    }
    await complete(db, prefix, worker, job.id);
  } finally {
    clearInterval(heartbeat);
    await session.close();
  }
}

// A job held when the database went away: released once it is back, so it runs again soon.
let held: string | undefined;
for (;;) {
  let next: Awaited<ReturnType<typeof lease>>;
  try {
    if (held !== undefined) await release(db, prefix, worker, held);
    held = undefined;
    next = await lease(db, prefix, worker);
    held = next.job?.id;
    if (next.job) await run(next.job);
    held = undefined;
  } catch (error) {
    // The database is away (a restart): try again in a moment.
    log(
      `database unavailable (${error instanceof Error ? error.message : String(error)}), retrying`,
    );
    await sleep(250);
    continue;
  }
  if (next.job) continue;
  if (next.pending === 0) break;
  await sleep(50); // jobs wait behind their thread's earlier job, or behind a lease
}
log('no jobs left');
await store.close();
await db.destroy();
