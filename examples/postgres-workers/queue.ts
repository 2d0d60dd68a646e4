// The job queue the workers share: one row per turn to run, in a table next to chunklog's.
// A worker leases the oldest pending job of a thread whose earlier jobs are all done, with
// `FOR UPDATE SKIP LOCKED`, so two workers never run the same thread at once and a thread's turns
// run in order. The supervisor (main.ts) releases the leases of a worker it saw die, so its job
// is taken over at once; a lease also expires by itself, as the last resort, after LEASE_MS —
// long, so that a live worker on a busy machine never loses its job to another.
// (In production, a maintained PostgreSQL queue does this: graphile-worker's named queues give
// the per-thread order, pg-boss's singleton queues too. See notes/0053.)
import { type Kysely, sql } from 'kysely';

export interface Job {
  readonly id: string; // also the turn id: the store stores a turn id once per thread
  readonly thread_id: string;
  readonly position: number;
  readonly text: string;
  readonly attempts: number;
}

/** How long a lease lasts without renewal: a margin no load reaches. */
export const LEASE_MS = 30_000;
/** How often a running job renews its lease. */
export const RENEW_MS = 2_000;

export const jobsTable = (prefix: string) => sql.table(`${prefix}jobs`);

export async function createQueue(db: Kysely<unknown>, prefix: string): Promise<void> {
  await sql`
    create table if not exists ${jobsTable(prefix)} (
      id text primary key,
      thread_id text not null,
      position integer not null,
      text text not null,
      state text not null default 'pending',
      leased_by text,
      leased_until timestamptz,
      attempts integer not null default 0,
      done_by text
    )`.execute(db);
}

export async function enqueue(
  db: Kysely<unknown>,
  prefix: string,
  jobs: readonly Omit<Job, 'attempts'>[],
): Promise<void> {
  for (const job of jobs) {
    await sql`insert into ${jobsTable(prefix)} (id, thread_id, position, text)
      values (${job.id}, ${job.thread_id}, ${job.position}, ${job.text})`.execute(db);
  }
}

/** Leases the next runnable job, or returns undefined (and whether any job is still pending). */
export async function lease(
  db: Kysely<unknown>,
  prefix: string,
  worker: string,
): Promise<{ job: Job | undefined; pending: number }> {
  const jobs = jobsTable(prefix);
  const { rows } = await sql<Job>`
    update ${jobs} set leased_by = ${worker},
      leased_until = now() + ${`${LEASE_MS} milliseconds`}::interval,
      attempts = attempts + 1
    where id = (
      select j.id from ${jobs} j
      where j.state = 'pending'
        and (j.leased_until is null or j.leased_until < now())
        and not exists (
          select 1 from ${jobs} k
          where k.thread_id = j.thread_id and k.state = 'pending' and k.position < j.position)
      order by j.position, j.id
      for update skip locked
      limit 1)
    returning id, thread_id, position, text, attempts`.execute(db);
  if (rows[0]) return { job: rows[0], pending: 1 };
  const count = await sql<{ n: number }>`
    select count(*)::int as n from ${jobs} where state = 'pending'`.execute(db);
  return { job: undefined, pending: count.rows[0]?.n ?? 0 };
}

/** Extends a lease while the turn runs; false when the lease was lost. */
export async function renew(db: Kysely<unknown>, prefix: string, worker: string, id: string) {
  const result = await sql`
    update ${jobsTable(prefix)} set leased_until = now() + ${`${LEASE_MS} milliseconds`}::interval
    where id = ${id} and leased_by = ${worker} and state = 'pending'`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** Marks the job done (only by the worker holding its lease). */
export async function complete(db: Kysely<unknown>, prefix: string, worker: string, id: string) {
  await sql`
    update ${jobsTable(prefix)} set state = 'done', done_by = ${worker}, leased_until = null
    where id = ${id} and leased_by = ${worker}`.execute(db);
}

/** Releases the leases of `worker` (it died, or gave its job up): another worker takes them now. */
export async function release(
  db: Kysely<unknown>,
  prefix: string,
  worker: string,
  id?: string,
): Promise<void> {
  await sql`
    update ${jobsTable(prefix)} set leased_by = null, leased_until = null
    where leased_by = ${worker} and state = 'pending'
      and (${id ?? null}::text is null or id = ${id ?? null})`.execute(db);
}
