import { type Backoff, backoffDelay, sleep } from '../errors/backoff.js';
import { ChunklogError } from '../errors/index.js';
import { readOptions, requireMethods } from '../errors/invalid-option.js';
import type { EventMeta } from '../live/event-meta.js';
import type * as live from '../live/relay.js';
import { type EventIdParts, formatEventId } from '../live/replay-buffer.js';
import type { ChunkEvent } from '../schema/chunk-event.js';
import { checkThreadId } from '../schema/id.js';
import { ControlExchange, type ControlReply, type ControlRequest } from './control-exchange.js';
import { checkPositiveIntegers } from './relay-options.js';
import {
  epochOf,
  type FollowBackend,
  type FollowWatcher,
  followStored,
  type StartPoint,
  type StoredEntry,
  unavailable,
} from './remote-follow.js';

/** A query result of `pg`. */
export interface PgResultLike {
  // biome-ignore lint/suspicious/noExplicitAny: rows of any shape
  readonly rows: any[];
}

/** The part of a `pg` client the relay uses. */
export interface PgClientLike {
  query(text: string, values?: unknown[]): Promise<PgResultLike>;
}

/** A client of a `pg` pool, held by the relay for `LISTEN`. */
export interface PgPoolClientLike extends PgClientLike {
  on(
    event: 'notification',
    listener: (message: { channel: string; payload?: string | undefined }) => void,
  ): unknown;
  on(event: 'error' | 'end', listener: (error?: unknown) => void): unknown;
  release(error?: Error | boolean): void;
}

/** The part of a `pg` pool the relay uses (`new pg.Pool(...)`). */
export interface PgPoolLike extends PgClientLike {
  connect(): Promise<PgPoolClientLike>;
}

/** Options of {@link createPostgresRelay}, for example `{ pool: new pg.Pool({ connectionString }) }`. */
export interface PostgresRelayOptions {
  /** A `pg` pool; the relay holds one of its connections for `LISTEN`. */
  readonly pool: PgPoolLike;
  /** The relay's table, and the prefix of its channels. Default `'chunklog_relay'`. */
  readonly table?: string | undefined;
  /**
   * How long a control request waits for the running process's answer. Default 5,000 ms.
   * `NOTIFY` cannot say how many processes a request reached, so a request that no process's
   * turn takes (`not-running`) is answered at this timeout, unless no turn runs at all.
   */
  readonly controlTimeoutMs?: number | undefined;
  /**
   * How long `close()` waits at most for the events published before it to be written. Default
   * 5,000 ms. Set it below your platform's shutdown grace period (what it could not write is
   * reported to `onError`, and readers on other instances see a gap).
   */
  readonly closeDrainMs?: number | undefined;
  /**
   * Told about every write that failed (the turn goes on; the events are written again, in
   * order, once the database answers), and about the events `close()` could not write.
   */
  readonly onError?: ((error: unknown, context: { readonly threadId: string }) => void) | undefined;
}

/** A {@link Relay} on PostgreSQL, with the call that creates its table. */
export interface PostgresRelay extends live.Relay {
  /** Creates the relay's table and indexes when they are missing (run once, at startup). */
  migrate(): Promise<void>;
}

/** The largest `NOTIFY` payload PostgreSQL takes is 8,000 bytes; control messages must fit. */
const MAX_PAYLOAD = 7_900;

/** How many events of a thread wait at most for a database that is away. */
const MAX_WAITING = 100_000;
/** The pause before writing again after a failed write: 50 ms, doubling to 2 s, jittered. */
const RETRY_BACKOFF: Backoff = { initialMs: 50, maxMs: 2000, jitter: true };

/**
 * Whether a failed write is worth writing again: the database was out of reach (no SQLSTATE:
 * a socket error, a connection that ended), or answered with a connection exception (08…), an
 * operator intervention (57P…, a restart) or too many connections (53300).
 */
function retryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return true;
  return code.startsWith('08') || code.startsWith('57P') || code === '53300';
}

interface Pending {
  readonly event: ChunkEvent;
  readonly meta: EventMeta;
}

/** The columns of a batch of rows, one array per column, as `unnest` takes them. */
interface RowColumns {
  readonly ords: readonly number[];
  readonly idxs: readonly number[];
  readonly turns: readonly string[];
  readonly ends: readonly boolean[];
  readonly events: readonly string[];
  /** Null for a plain numbering (a turn's first run). */
  readonly epochs: ReadonlyArray<number | null>;
}

/** The epoch of a row (`bigint` comes back as a string; null: a plain numbering). */
function epochOfRow(value: unknown): number | undefined {
  return value === null || value === undefined ? undefined : Number(value);
}

/** A turn whose first event (index 0) a batch writes, under the number it took. */
interface Started {
  readonly turnId: string;
  readonly ord: number;
}

/** A thread's publisher: one batch in flight at a time, so rows commit in publish order. */
interface ThreadPublisher {
  queue: Pending[];
  /** The writing of the queue, while it runs (`close()` waits for it). */
  flushing: Promise<void> | undefined;
  /** How many events the statement in flight writes. */
  writing: number;
  /** The running turn and its number. */
  turn: { readonly turnId: string; readonly ord: number } | undefined;
  /** A turn whose first event never landed (looked up once, then its events are dropped). */
  lost?: string | undefined;
}

class PostgresRelayImpl implements PostgresRelay, FollowBackend<number> {
  readonly #pool: PgPoolLike;
  readonly #table: string;
  readonly #wakeChannel: string;
  readonly #controlChannel: string;
  readonly #replyChannel: string;
  readonly #onError: NonNullable<PostgresRelayOptions['onError']>;
  readonly #exchange: ControlExchange;
  readonly #publishers = new Map<string, ThreadPublisher>();
  readonly #watchers = new Map<string, Set<FollowWatcher>>();
  #listener: Promise<PgPoolClientLike> | undefined;
  /** Aborted by `close()`: a pause before a retry ends, and a write that fails is not retried. */
  readonly #closing = new AbortController();
  /** `close()`'s work, shared by every call. */
  #shutdown: Promise<void> | undefined;
  /** `close()` is done waiting: nothing is written any more, the listening connection is gone. */
  #closed = false;

  readonly #closeDrainMs: number;

  constructor(
    options: PostgresRelayOptions,
    table: string,
    limits: { readonly controlTimeoutMs: number; readonly closeDrainMs: number },
  ) {
    this.#pool = options.pool;
    this.#table = table;
    this.#wakeChannel = `${table}_wake`;
    this.#controlChannel = `${table}_control`;
    this.#replyChannel = `${table}_reply`;
    this.#onError = options.onError ?? (() => {});
    this.#exchange = new ControlExchange(limits.controlTimeoutMs);
    this.#closeDrainMs = limits.closeDrainMs;
  }

  async migrate(): Promise<void> {
    const t = this.#table;
    // One simple query is one implicit transaction: the advisory lock (keyed by the table name,
    // a checked SQL name) makes instances that start together create the table one after the
    // other — `CREATE TABLE IF NOT EXISTS` alone races ("relation already exists"). A table of a
    // version before epochs gains the column (null: a plain numbering, as its rows are).
    await this.#pool.query(`SELECT pg_advisory_xact_lock(hashtext('chunklog-relay-migrate:${t}'));
      CREATE TABLE IF NOT EXISTS ${t} (
        pos bigserial PRIMARY KEY,
        thread_id text NOT NULL,
        ord bigint NOT NULL,
        idx integer NOT NULL,
        turn_id text NOT NULL,
        ended boolean NOT NULL,
        event text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      ALTER TABLE ${t} ADD COLUMN IF NOT EXISTS epoch bigint;
      CREATE INDEX IF NOT EXISTS ${t}_thread ON ${t} (thread_id, pos);
      CREATE INDEX IF NOT EXISTS ${t}_turn ON ${t} (thread_id, turn_id, idx)`);
  }

  /** The connection that listens; (re)connected on demand after it dropped. */
  #listen(): Promise<PgPoolClientLike> {
    if (this.#closed)
      return Promise.reject(new ChunklogError('closed', 'The PostgreSQL relay is closed'));
    if (this.#listener !== undefined) return this.#listener;
    const listener = (async () => {
      const client = await this.#pool.connect();
      let gone = false;
      const drop = (error?: unknown) => {
        if (gone) return;
        gone = true;
        if (this.#listener === listener) this.#listener = undefined;
        const lost = new ChunklogError(
          'relay-unavailable',
          'The PostgreSQL relay lost its connection',
          {
            cause: error,
          },
        );
        for (const watchers of this.#watchers.values()) for (const w of watchers) w.lost(lost);
        try {
          client.release(true);
        } catch {
          // already released
        }
      };
      client.on('error', drop);
      client.on('end', drop);
      client.on('notification', (message) =>
        this.#notification(message.channel, message.payload ?? ''),
      );
      try {
        await client.query(
          `SET synchronous_commit = off; LISTEN ${this.#wakeChannel}; LISTEN ${this.#controlChannel}; LISTEN ${this.#replyChannel}`,
        );
      } catch (error) {
        drop(error);
        throw error;
      }
      return client;
    })();
    this.#listener = listener;
    listener.catch(() => {
      if (this.#listener === listener) this.#listener = undefined;
    });
    return listener;
  }

  #notification(channel: string, payload: string): void {
    if (channel === this.#wakeChannel) {
      for (const w of this.#watchers.get(payload) ?? []) w.wake.notify();
    } else if (channel === this.#replyChannel) {
      this.#exchange.replied(JSON.parse(payload) as ControlReply);
    } else if (channel === this.#controlChannel) {
      const request = JSON.parse(payload) as ControlRequest;
      if (!this.#exchange.serves(request.threadId)) return;
      void this.#exchange
        .answer(request)
        .then(async (reply) => {
          if (reply === undefined) return;
          await this.#pool.query('SELECT pg_notify($1, $2)', [
            this.#replyChannel,
            JSON.stringify(reply),
          ]);
        })
        .catch((error: unknown) => this.#onError(error, { threadId: request.threadId }));
    }
  }

  publish(threadId: string, event: ChunkEvent, meta: EventMeta): void {
    if (this.#closed) {
      this.#onError(notWritten(1), { threadId });
      return;
    }
    let publisher = this.#publishers.get(threadId);
    if (publisher === undefined) {
      publisher = { queue: [], flushing: undefined, writing: 0, turn: undefined };
      this.#publishers.set(threadId, publisher);
    }
    publisher.queue.push({ event, meta });
    if (publisher.flushing === undefined) {
      // Written from the next microtask: the events published together go in one statement.
      const waiting = publisher;
      publisher.flushing = Promise.resolve().then(() => this.#flush(threadId, waiting));
    }
  }

  /**
   * Writes what waits, one batch per statement, until nothing waits. A batch that fails (the
   * database is away) is reported and written again, after a pause, from its first event that did
   * not land: readers get the events of an outage once it is over, in order. At most
   * `MAX_WAITING` events of a thread wait; beyond, the oldest are dropped (readers see a gap).
   * Once `close()` is called, a pause ends at once and a write that fails again is the last:
   * what it did not write is reported.
   */
  async #flush(threadId: string, publisher: ThreadPublisher): Promise<void> {
    let failures = 0;
    try {
      while (publisher.queue.length > 0 && !this.#closed) {
        const batch = publisher.queue.splice(0);
        const landed = { count: 0, turn: publisher.turn };
        const failed = await this.#attempt(threadId, publisher, batch, landed);
        if (failed === undefined) {
          failures = 0;
          continue;
        }
        if (this.#closed) return; // `close()` gave up on this write and reported it
        this.#onError(failed.error, { threadId });
        if (!retryable(failed.error)) continue; // the statement failed: dropped, readers see a gap
        publisher.turn = landed.turn;
        publisher.queue.unshift(...batch.slice(landed.count));
        const over = publisher.queue.length - MAX_WAITING;
        if (over > 0) publisher.queue.splice(0, over);
        if (this.#closing.signal.aborted) {
          this.#reportUnwritten(threadId, publisher);
          return;
        }
        await sleep(backoffDelay(RETRY_BACKOFF, failures++), this.#closing.signal);
      }
    } finally {
      publisher.flushing = undefined;
      if (publisher.queue.length === 0 && publisher.turn === undefined)
        this.#publishers.delete(threadId);
    }
  }

  /** Writes a batch, counted in `publisher.writing` meanwhile; returns how it failed, if it did. */
  async #attempt(
    threadId: string,
    publisher: ThreadPublisher,
    batch: readonly Pending[],
    landed: { count: number; turn: ThreadPublisher['turn'] },
  ): Promise<{ readonly error: unknown } | undefined> {
    publisher.writing = batch.length;
    try {
      await this.#write(threadId, publisher, batch, landed);
      return undefined;
    } catch (error) {
      return { error };
    } finally {
      publisher.writing = 0;
    }
  }

  /** Reports the events of a thread that will not be written (the relay closes), and drops them. */
  #reportUnwritten(threadId: string, publisher: ThreadPublisher): void {
    const count = publisher.queue.length + publisher.writing;
    publisher.queue.length = 0;
    publisher.writing = 0;
    if (count > 0) this.#onError(notWritten(count), { threadId });
  }

  /**
   * Writes a batch; `landed` follows how many of its events are in the table and the running
   * turn after them (where a retry starts).
   */
  async #write(
    threadId: string,
    publisher: ThreadPublisher,
    batch: readonly Pending[],
    landed: { count: number; turn: ThreadPublisher['turn'] },
  ): Promise<void> {
    const ords: number[] = [];
    const idxs: number[] = [];
    const turns: string[] = [];
    const ends: boolean[] = [];
    const events: string[] = [];
    const epochs: Array<number | null> = [];
    let prune: number | undefined;
    /** The turn whose first event the rows start with: the numbering it replaces goes. */
    let started: Started | undefined;
    for (let k = 0; k < batch.length; k++) {
      const { event, meta } = batch[k] as Pending;
      if (meta.index === 0) {
        // A turn that starts is served from here (the session serves its control before its
        // first event): listen before the turn is visible, so no control message is missed.
        await this.#listen().catch(() => {});
        if (ords.length > 0) {
          // A turn number is read after the rows before it landed.
          await this.#insert(threadId, { ords, idxs, turns, ends, events, epochs }, prune, started);
          ords.length =
            idxs.length =
            turns.length =
            ends.length =
            events.length =
            epochs.length =
              0;
          prune = undefined;
        }
        landed.count = k;
        landed.turn = publisher.turn;
        const result = await this.#pool.query(
          `SELECT coalesce(max(ord), 0) + 1 AS ord FROM ${this.#table} WHERE thread_id = $1`,
          [threadId],
        );
        publisher.turn = { turnId: meta.turnId, ord: Number(result.rows[0].ord) };
        started = publisher.turn;
      }
      if (
        meta.index !== 0 &&
        publisher.turn?.turnId !== meta.turnId &&
        publisher.lost !== meta.turnId
      ) {
        // A turn taken over after a crash: it goes on under the number its dead process got.
        await this.#listen().catch(() => {});
        const result = await this.#pool.query(
          `SELECT ord FROM ${this.#table} WHERE thread_id = $1 AND turn_id = $2 LIMIT 1`,
          [threadId, meta.turnId],
        );
        const row = result.rows[0];
        if (row !== undefined) publisher.turn = { turnId: meta.turnId, ord: Number(row.ord) };
        else publisher.lost = meta.turnId;
      }
      const turn = publisher.turn;
      if (turn === undefined || turn.turnId !== meta.turnId) continue; // its start was lost
      ords.push(turn.ord);
      idxs.push(meta.index);
      turns.push(meta.turnId);
      ends.push(event.type === 'turn-end');
      events.push(JSON.stringify(event));
      epochs.push(epochOf(meta) ?? null);
      if (event.type === 'turn-end') {
        prune = turn.ord;
        publisher.turn = undefined;
      }
    }
    if (ords.length > 0)
      await this.#insert(threadId, { ords, idxs, turns, ends, events, epochs }, prune, started);
    landed.count = batch.length;
    landed.turn = publisher.turn;
  }

  /**
   * Writes rows in one statement: the rows, the wake-up (sent at commit), after a turn-end the
   * pruning of the turns before it, and when the rows start with a turn's first event
   * (`started`) the rows of that turn under an earlier number.
   */
  async #insert(
    threadId: string,
    rows: RowColumns,
    prune: number | undefined,
    started: Started | undefined,
  ): Promise<void> {
    const { ords, idxs, turns, ends, events, epochs } = rows;
    const t = this.#table;
    // The pruning runs only after a turn-end: it reads the thread's rows, a cost per write that
    // would grow with the turn. A turn whose first event comes again under a new number was
    // continued anew while the table held its earlier numbering (the relay was away when the
    // continuation asked for the last index, so it numbered from 0): it replaces that numbering,
    // as the in-process relay's buffer does, so that the turn has one numbering here and its last
    // event, a resume id and an end published for it are all read in the live one. For a turn
    // that starts for the first time, that delete is a probe of the turn index that finds
    // nothing. On the relay's own connection, whose commits do not wait for the disk (the rows
    // are transient: the store has the turn).
    const values: unknown[] = [
      threadId,
      ords,
      idxs,
      turns,
      ends,
      events,
      this.#wakeChannel,
      epochs,
    ];
    let deletes = '';
    if (prune !== undefined) {
      values.push(prune);
      deletes += `, pruned AS (DELETE FROM ${t} WHERE thread_id = $1 AND ord < $${values.length} RETURNING 1)`;
    }
    if (started !== undefined) {
      values.push(started.turnId, started.ord);
      deletes += `, replaced AS (DELETE FROM ${t}
         WHERE thread_id = $1 AND turn_id = $${values.length - 1} AND ord < $${values.length}
         RETURNING 1)`;
    }
    const client = await this.#listen();
    await client.query(
      `WITH rows AS (
         INSERT INTO ${t} (thread_id, ord, idx, turn_id, ended, event, epoch)
         SELECT $1, * FROM unnest(
           $2::bigint[], $3::int[], $4::text[], $5::boolean[], $6::text[], $8::bigint[]
         )
         RETURNING 1
       )${deletes}
       SELECT pg_notify($7, $1), (SELECT count(*) FROM rows)`,
      values,
    );
  }

  follow(threadId: string, options: live.RelayFollowOptions = {}): AsyncIterable<live.RelayRead> {
    return followStored(this, 'PostgreSQL', threadId, options);
  }

  async watch(threadId: string, watcher: FollowWatcher): Promise<() => void> {
    await this.#listen();
    let watchers = this.#watchers.get(threadId);
    if (watchers === undefined) {
      watchers = new Set();
      this.#watchers.set(threadId, watchers);
    }
    watchers.add(watcher);
    const set = watchers;
    return () => {
      set.delete(watcher);
      if (set.size === 0 && this.#watchers.get(threadId) === set) this.#watchers.delete(threadId);
    };
  }

  async locate(threadId: string, seen: EventIdParts | undefined): Promise<StartPoint<number>> {
    const t = this.#table;
    // One statement, so one snapshot: the event seen and the latest stored turn are read at the
    // same moment. Read apart, a turn could land in between: its first event not found yet, its
    // end found, and the reader would start after a turn it never got. The event seen is one of
    // its epoch: an id of a numbering given before the relay lost the turn (which the continued
    // turn then numbered anew) finds none, and the reader gets a gap.
    const result = await this.#pool.query(
      `SELECT s.pos AS seen_pos, s.ord AS seen_ord, e.pos, e.ord, e.first
       FROM (SELECT 1) AS one
       LEFT JOIN LATERAL (
         SELECT pos, ord FROM ${t}
         WHERE thread_id = $1 AND turn_id = $2 AND idx = $3 AND epoch IS NOT DISTINCT FROM $4
         LIMIT 1
       ) AS s ON true
       LEFT JOIN LATERAL (
         SELECT e.pos, e.ord,
           (SELECT min(f.pos) FROM ${t} f WHERE f.thread_id = $1 AND f.ord = e.ord) AS first
         FROM ${t} e WHERE e.thread_id = $1 AND e.ended ORDER BY e.pos DESC LIMIT 1
       ) AS e ON true`,
      [threadId, seen?.turnId ?? null, seen?.index ?? null, seen?.epoch ?? null],
    );
    const row = result.rows[0] as {
      seen_pos: string | null;
      seen_ord: string | null;
      pos: string | null;
      ord: string | null;
      first: string | null;
    };
    if (seen !== undefined && row.seen_pos !== null) {
      return {
        position: Number(row.seen_pos),
        ord: Number(row.seen_ord),
        index: seen.index,
        ended: undefined,
        gap: false,
      };
    }
    if (seen === undefined && row.pos !== null) {
      // Without an id: from the start of the latest stored turn (kept until the next one ends),
      // so that a reader that comes just as it is stored still gets it.
      return {
        position: Number(row.first) - 1,
        ord: Number(row.ord) - 1,
        index: 0,
        ended: true,
        gap: false,
      };
    }
    return {
      position: row.pos === null ? 0 : Number(row.pos),
      ord: row.ord === null ? 0 : Number(row.ord),
      index: 0,
      ended: true,
      gap: seen !== undefined,
    };
  }

  async read(threadId: string, position: number, count: number): Promise<StoredEntry<number>[]> {
    const result = await this.#pool.query(
      `SELECT pos, ord, idx, turn_id, event, epoch FROM ${this.#table}
       WHERE thread_id = $1 AND pos > $2 ORDER BY pos LIMIT $3`,
      [threadId, position, count],
    );
    return result.rows.map((row) => ({
      position: Number(row.pos),
      ord: Number(row.ord),
      index: Number(row.idx),
      turnId: String(row.turn_id),
      epoch: epochOfRow(row.epoch),
      json: String(row.event),
    }));
  }

  async lastIndex(threadId: string, turnId: string): Promise<number | undefined> {
    return (await this.#lastRow(threadId, turnId))?.index;
  }

  async lastEventId(threadId: string, turnId: string): Promise<string | undefined> {
    const last = await this.#lastRow(threadId, turnId);
    return last === undefined ? undefined : formatEventId(turnId, last.index, last.epoch);
  }

  /** The last event the table holds of a turn: its index and its numbering's epoch. */
  async #lastRow(
    threadId: string,
    turnId: string,
  ): Promise<{ index: number; epoch: number | undefined } | undefined> {
    try {
      // The last entry of the turn's index, not max(): on a table without statistics yet (a new
      // one), the planner would aggregate every event of the turn.
      const result = await this.#pool.query(
        `SELECT idx, epoch FROM ${this.#table} WHERE thread_id = $1 AND turn_id = $2
         ORDER BY idx DESC LIMIT 1`,
        [threadId, turnId],
      );
      const row = result.rows[0];
      if (row === undefined || row.idx === null) return undefined;
      return { index: Number(row.idx), epoch: epochOfRow(row.epoch) };
    } catch (error) {
      throw unavailable('PostgreSQL', error);
    }
  }

  async runningTurn(threadId: string): Promise<string | undefined> {
    try {
      const result = await this.#pool.query(
        `SELECT turn_id, ended FROM ${this.#table} WHERE thread_id = $1 ORDER BY pos DESC LIMIT 1`,
        [threadId],
      );
      const row = result.rows[0];
      return row === undefined || row.ended === true ? undefined : String(row.turn_id);
    } catch (error) {
      throw unavailable('PostgreSQL', error);
    }
  }

  async control(threadId: string, message: live.ControlMessage): Promise<live.ControlAnswer> {
    // No turn runs (no process would answer): say so without waiting.
    if ((await this.runningTurn(threadId)) === undefined) return { type: 'not-running' };
    try {
      await this.#listen();
      const { request, answer } = this.#exchange.request(threadId, message);
      const payload = JSON.stringify(request);
      if (new TextEncoder().encode(payload).length > MAX_PAYLOAD) {
        this.#exchange.abandon(request.id);
        throw new ChunklogError(
          'invalid-option',
          `The control message is too large for PostgreSQL's NOTIFY (at most ${MAX_PAYLOAD} bytes)`,
          { option: 'text' },
        );
      }
      await this.#pool.query('SELECT pg_notify($1, $2)', [this.#controlChannel, payload]);
      return await answer;
    } catch (error) {
      if (ChunklogError.hasCode(error, 'invalid-option')) throw error;
      throw unavailable('PostgreSQL', error);
    }
  }

  serveControl(threadId: string, handler: live.ControlHandler): () => void {
    const stop = this.#exchange.serve(threadId, handler);
    void this.#listen().catch((error: unknown) => this.#onError(error, { threadId }));
    return stop;
  }

  async forget(threadId: string): Promise<void> {
    checkThreadId(threadId, 'threadId', 'relay.forget');
    try {
      // Readers need no word of it: rows numbered after the ones they read come next, and a
      // turn that does not follow the last one they got is a gap.
      await this.#pool.query(`DELETE FROM ${this.#table} WHERE thread_id = $1`, [threadId]);
    } catch (error) {
      throw unavailable('PostgreSQL', error);
    }
    // A turn that runs here goes on under its number (forget cancels nothing); the next one
    // is numbered from the rows left.
  }

  /**
   * Writes the events published before it (for at most `closeDrainMs`; those still waiting
   * then are reported to `onError`), then releases the listening connection.
   */
  close(): Promise<void> {
    this.#shutdown ??= this.#shutDown();
    return this.#shutdown;
  }

  async #shutDown(): Promise<void> {
    this.#closing.abort();
    this.#exchange.close();
    const drained = await this.#drained(this.#closeDrainMs);
    this.#closed = true;
    if (!drained) {
      // Their statement in flight fails once the connection is released.
      for (const [threadId, publisher] of this.#publishers)
        this.#reportUnwritten(threadId, publisher);
    }
    const listener = this.#listener;
    this.#listener = undefined;
    if (listener !== undefined) {
      const client = await listener.catch(() => undefined);
      try {
        client?.release(true);
      } catch {
        // already released
      }
    }
  }

  /** Waits at most `ms` until every thread's events are written; returns whether they were. */
  async #drained(ms: number): Promise<boolean> {
    const done = new AbortController();
    void this.#flushed().then(() => done.abort());
    const timedOut = await sleep(ms, done.signal);
    return !timedOut;
  }

  /** Resolves once no thread has events waiting or being written. */
  async #flushed(): Promise<void> {
    for (;;) {
      const flushing = [...this.#publishers.values()].flatMap((p) => p.flushing ?? []);
      if (flushing.length === 0) return;
      await Promise.all(flushing);
    }
  }
}

/** The error `onError` is given for events the relay closed without writing. */
function notWritten(count: number): ChunklogError {
  return new ChunklogError(
    'relay-unavailable',
    `The PostgreSQL relay closed before ${count} event(s) of the thread were written; readers see a gap`,
  );
}

/** Every option of {@link createPostgresRelay}: any other key is refused. */
const POSTGRES_RELAY_OPTIONS: readonly (keyof PostgresRelayOptions)[] = [
  'pool',
  'table',
  'controlTimeoutMs',
  'closeDrainMs',
  'onError',
];

/**
 * A relay on PostgreSQL (with the `pg` client), for apps that run nothing else: each event is a
 * row of the relay's own table (created by `migrate()`, apart from the store's migrations),
 * written in batches in publish order; `NOTIFY` wakes the readers, who read the rows after the
 * last they saw. Control messages travel by `NOTIFY` to the process that runs the turn, which
 * answers the same way. A turn's `turn-end` deletes the turns before it; a turn that starts again
 * (continued anew after a crash) replaces its earlier rows. `close()` first writes
 * the events published before it (waiting at most 5 s; what it could not write goes to `onError`).
 *
 * @param options - the pool, the table, the control timeout
 * @returns the relay, with `migrate()`
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * import { createPostgresRelay } from 'chunklog/relay';
 *
 * const relay = createPostgresRelay({ pool: new pg.Pool({ connectionString: process.env.DATABASE_URL }) });
 * await relay.migrate();
 * ```
 */
export function createPostgresRelay(options: PostgresRelayOptions): PostgresRelay {
  const where = 'createPostgresRelay';
  readOptions(options, where, POSTGRES_RELAY_OPTIONS);
  // Read with `?.`: undefined options are refused by being asked for the pool.
  requireMethods(where, 'pool', options?.pool, ['query', 'connect'], 'a pg Pool');
  const table = options.table ?? 'chunklog_relay';
  if (typeof table !== 'string' || !/^[a-z_][a-z0-9_]{0,40}$/.test(table)) {
    throw new ChunklogError(
      'invalid-option',
      `${where}: \`table\` must be a lower-case SQL name of at most 41 characters`,
      { option: 'table', value: table },
    );
  }
  const limits = {
    controlTimeoutMs: options.controlTimeoutMs ?? 5000,
    closeDrainMs: options.closeDrainMs ?? 5000,
  };
  checkPositiveIntegers(where, Object.entries(limits));
  return new PostgresRelayImpl(options, table, limits);
}
