import { createHash } from 'node:crypto';
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

/**
 * The part of an `ioredis` client the Redis relay uses (typed structurally: `ioredis` is an
 * optional peer, imported only by the app).
 */
export interface RedisClientLike {
  /** Sends any command (`ioredis`'s `call`). */
  call(command: string, ...args: Array<string | number>): Promise<unknown>;
  /** A new connection with the same options (for the relay's subscriptions). */
  duplicate(): RedisSubscriberLike;
}

/** The part of an `ioredis` connection the relay subscribes with. */
export interface RedisSubscriberLike {
  subscribe(...channels: string[]): Promise<unknown>;
  unsubscribe(...channels: string[]): Promise<unknown>;
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
  on(event: 'close' | 'ready', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  disconnect(): void;
}

/** Options of {@link createRedisRelay}, for example `{ redis: new Redis(url) }`. */
export interface RedisRelayOptions {
  /** An `ioredis` client (`new Redis(url)`); the relay duplicates it once for subscriptions. */
  readonly redis: RedisClientLike;
  /** The prefix of the relay's keys and channels. Default `'chunklog'`. */
  readonly prefix?: string | undefined;
  /** How long a control request waits for the running process's answer. Default 5,000 ms. */
  readonly controlTimeoutMs?: number | undefined;
  /** How long a thread's events are kept after its last turn started or ended. Default one day. */
  readonly ttlMs?: number | undefined;
  /**
   * Told about every publish that failed (the turn goes on; readers see a gap), about a
   * thread's control it could not listen for while its connection was down (it listens once the
   * connection is back), and about a running turn whose keys Redis lost (a restart without
   * persistence, a failover, an eviction): a `relay-unavailable` error naming the thread and the
   * turn, once, when the relay registers the turn again; readers get a gap, then the rest of it.
   */
  readonly onError?: ((error: unknown, context: { readonly threadId: string }) => void) | undefined;
}

// One event: turn numbers come from the thread's hash (a turn-start takes the next; turn 1 names
// the numbering), the stream id is `<turn number>-<event index>`, a turn-end prunes the turns
// before it, and the wake-up is published with it, all in one step. The event of a continued turn
// keeps its numbering's epoch in field `r` (none: a turn's first run, or an entry written before
// the relay kept epochs).
//
// An event of a turn the hash does not know (Redis lost the keys mid-turn: a restart without
// persistence, a failover, an eviction, a `forget`) registers the turn again, as a turn-start
// would: it takes the next number, and its events go on from their own index. Nothing follows an
// index other than 0 at the start of a turn, so a reader sees a gap (it reloads the store), then
// the rest of the turn through its end; the script answers 2 so that the relay reports it. A hash
// without a counter never numbered what the stream holds (the stream outlived it: an eviction):
// that stream goes, for the numbering starts again at 1.
const PUBLISH_SCRIPT = `
local stream, meta = KEYS[1], KEYS[2]
local turnId, index, json, kind, ttl, channel = ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local epoch = ARGV[7] or ''
local ord
if index ~= 0 then ord = tonumber(redis.call('HGET', meta, 't:' .. turnId)) end
local registered = index ~= 0 and not ord
if not ord then
  if redis.call('HEXISTS', meta, '#ord') == 0 then redis.call('DEL', stream) end
  ord = redis.call('HINCRBY', meta, '#ord', 1)
  redis.call('HSET', meta, 't:' .. turnId, ord, '#running', turnId)
  if ord == 1 then redis.call('HSET', meta, '#numbering', turnId) end
end
local id = ord .. '-' .. index
if epoch == '' then
  redis.call('XADD', stream, id, 'e', json, 't', turnId)
else
  redis.call('XADD', stream, id, 'e', json, 't', turnId, 'r', epoch)
end
if kind == 'end' then
  if redis.call('HGET', meta, '#running') == turnId then redis.call('HDEL', meta, '#running') end
  redis.call('HSET', meta, '#sealed', ord)
  redis.call('XTRIM', stream, 'MINID', ord .. '-0')
  local all = redis.call('HGETALL', meta)
  for i = 1, #all, 2 do
    local f = all[i]
    if string.sub(f, 1, 2) == 't:' and tonumber(all[i + 1]) < ord then redis.call('HDEL', meta, f) end
  end
end
if index == 0 or registered or kind == 'end' then
  redis.call('PEXPIRE', stream, ttl)
  redis.call('PEXPIRE', meta, ttl)
end
redis.call('PUBLISH', channel, id)
if registered then return 2 end
return 1
`;

/** PUBLISH_SCRIPT's answer when Redis had lost the event's turn and the script registered it again. */
const REGISTERED_AGAIN = 2;

/** What `onError` is told when Redis had lost a running turn and the relay registered it again. */
function lostTurn(threadId: string, meta: EventMeta): ChunklogError {
  return new ChunklogError(
    'relay-unavailable',
    `The Redis relay had lost turn ${meta.turnId} of thread ${threadId} (its keys were gone: a ` +
      `restart without persistence, a failover, an eviction, a forget); it registered the turn ` +
      `again from event ${meta.id}: readers get a gap, then the rest of the turn`,
    { threadId, value: { turnId: meta.turnId, eventId: meta.id } },
  );
}

// The entries after a position, and the numbering they belong to. Once a thread's keys are gone
// (forgotten, or expired after `ttlMs`) its turn counter goes with them: the next turn is turn 1
// again, its stream ids at or below those a reader following across got. A position of another
// numbering than the thread's now is read from the stream's first entry: none of those was read,
// and the reader sees a turn numbered anew, which follows nothing it got (a gap).
const READ_SCRIPT = `
local numbering = redis.call('HGET', KEYS[2], '#numbering') or ''
local from = ARGV[2]
if ARGV[1] ~= '' and ARGV[1] ~= numbering then from = '-' end
return {numbering, redis.call('XRANGE', KEYS[1], from, '+', 'COUNT', ARGV[3])}
`;

/** READ_SCRIPT's digest, by which a read names it (`EVALSHA`) instead of sending it whole. */
const READ_SCRIPT_SHA = createHash('sha1').update(READ_SCRIPT).digest('hex');

/** Whether Redis refused a script by digest because its script cache does not hold it. */
function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

/**
 * Where a reader stands in a thread's stream: after `id` (an `XRANGE` bound), in the numbering
 * that turn `numbering` started (`''`: a stream not started yet, before any numbering's entries).
 */
interface StreamPosition {
  readonly numbering: string;
  readonly id: string;
}

const MAX_SEQ = '18446744073709551615';

function parseStreamId(id: string): { ord: number; index: number } {
  const dash = id.indexOf('-');
  return { ord: Number(id.slice(0, dash)), index: Number(id.slice(dash + 1)) };
}

/** A stream entry's fields: the event's JSON, its turn, and its numbering's epoch if it has one. */
interface EntryFields {
  readonly json: string;
  readonly turnId: string;
  readonly epoch: number | undefined;
}

function parseFields(fields: readonly string[]): EntryFields {
  let json = '';
  let turnId = '';
  let epoch: number | undefined;
  for (let i = 0; i < fields.length; i += 2) {
    const value = fields[i + 1] as string;
    if (fields[i] === 'e') json = value;
    else if (fields[i] === 't') turnId = value;
    else if (fields[i] === 'r') epoch = Number(value);
  }
  return { json, turnId, epoch };
}

/** One entry of `XRANGE` / `XREVRANGE`: its stream id and fields. */
type StreamEntry = [string, string[]];

class RedisRelay implements live.Relay, FollowBackend<StreamPosition> {
  readonly #redis: RedisClientLike;
  readonly #prefix: string;
  readonly #ttlMs: number;
  readonly #onError: NonNullable<RedisRelayOptions['onError']>;
  readonly #exchange: ControlExchange;
  #sub: RedisSubscriberLike | undefined;
  #ready: Promise<void> | undefined;
  /** Readers waiting for a thread's wake-ups, by channel. */
  readonly #watchers = new Map<string, Set<FollowWatcher>>();
  #closed = false;
  /** Threads whose events wait for a control subscription to be in place. */
  readonly #gates = new Map<string, Promise<void>>();
  /** The subscriber connection dropped and has not come back yet. */
  #down = false;

  constructor(options: RedisRelayOptions, controlTimeoutMs: number) {
    this.#redis = options.redis;
    this.#prefix = options.prefix ?? 'chunklog';
    this.#ttlMs = options.ttlMs ?? 86_400_000;
    this.#onError = options.onError ?? (() => {});
    this.#exchange = new ControlExchange(controlTimeoutMs);
  }

  #keys(threadId: string): { stream: string; meta: string } {
    const base = `${this.#prefix}:{${threadId}}`;
    return { stream: `${base}:events`, meta: `${base}:meta` };
  }
  #wakeChannel(threadId: string): string {
    return `${this.#prefix}:wake:${threadId}`;
  }
  #controlChannel(threadId: string): string {
    return `${this.#prefix}:control:${threadId}`;
  }
  get #replyChannel(): string {
    return `${this.#prefix}:reply:${this.#exchange.instance}`;
  }

  /** The subscriber connection, subscribed to this process's reply channel. */
  #subscriber(): Promise<RedisSubscriberLike> {
    if (this.#closed)
      return Promise.reject(new ChunklogError('closed', 'The Redis relay is closed'));
    const sub = this.#sub ?? this.#connect();
    if (this.#down) {
      // Not connected now: fail at once rather than wait in the client's offline queue.
      return Promise.reject(
        new ChunklogError('relay-unavailable', 'The Redis relay is not connected'),
      );
    }
    return (this.#ready as Promise<void>).then(() => sub);
  }

  /** Opens the subscriber connection and subscribes it to this process's reply channel. */
  #connect(): RedisSubscriberLike {
    const sub = this.#redis.duplicate();
    this.#sub = sub;
    sub.on('error', () => {
      // reported through `close`: a dropped connection fails the readers
    });
    sub.on('ready', () => this.#reconnected(sub));
    sub.on('close', () => {
      this.#down = true;
      const error = new ChunklogError('relay-unavailable', 'The Redis relay lost its connection');
      for (const watchers of this.#watchers.values()) for (const w of watchers) w.lost(error);
    });
    sub.on('message', (channel, message) => this.#message(channel, message));
    this.#ready = sub.subscribe(this.#replyChannel).then(() => {});
    return sub;
  }

  /**
   * The subscriber connection is back after a drop: it subscribes again to every channel this
   * process listens on. ioredis resubscribes the channels Redis had confirmed, but a subscribe
   * refused while the connection was down (a turn that started then) never went out, and its
   * thread's control would stay unreachable for the whole turn. Redis ignores a channel
   * subscribed twice.
   */
  #reconnected(sub: RedisSubscriberLike): void {
    if (!this.#down) return; // the first connection: its subscriptions are on their way
    this.#down = false;
    const ready = sub.subscribe(...this.#channels()).then(() => {});
    ready.catch(() => {}); // dropped again: the next `ready` subscribes again
    this.#ready = ready;
  }

  /**
   * The channels this process listens on: its replies, the control of the threads it serves
   * (until their last serve stops), the wake-ups its readers wait for.
   */
  #channels(): string[] {
    const control = [...this.#exchange.servedThreads()].map((t) => this.#controlChannel(t));
    return [this.#replyChannel, ...control, ...this.#watchers.keys()];
  }

  #message(channel: string, message: string): void {
    const watchers = this.#watchers.get(channel);
    if (watchers !== undefined) {
      for (const w of watchers) w.wake.notify();
      return;
    }
    if (channel === this.#replyChannel) {
      this.#exchange.replied(JSON.parse(message) as ControlReply);
      return;
    }
    if (channel.startsWith(`${this.#prefix}:control:`)) {
      const request = JSON.parse(message) as ControlRequest;
      void this.#exchange
        .answer(request)
        .then(async (reply) => {
          if (reply === undefined) return;
          await this.#redis.call(
            'PUBLISH',
            `${this.#prefix}:reply:${reply.to}`,
            JSON.stringify(reply),
          );
        })
        .catch((error: unknown) => this.#onError(error, { threadId: request.threadId }));
    }
  }

  publish(threadId: string, event: ChunkEvent, meta: EventMeta): void {
    const gate = this.#gates.get(threadId);
    if (gate === undefined) {
      this.#send(threadId, event, meta);
      return;
    }
    // The thread's control subscription is on its way: its events wait for it, in order.
    const next = gate.then(() => this.#send(threadId, event, meta));
    this.#gates.set(threadId, next);
    void next.then(() => {
      if (this.#gates.get(threadId) === next) this.#gates.delete(threadId);
    });
  }

  #send(threadId: string, event: ChunkEvent, meta: EventMeta): void {
    const { stream, meta: hash } = this.#keys(threadId);
    this.#redis
      .call(
        'EVAL',
        PUBLISH_SCRIPT,
        2,
        stream,
        hash,
        meta.turnId,
        meta.index,
        JSON.stringify(event),
        event.type === 'turn-end' ? 'end' : '',
        this.#ttlMs,
        this.#wakeChannel(threadId),
        epochOf(meta) ?? '',
      )
      .then(
        (result) => {
          if (result === REGISTERED_AGAIN) this.#onError(lostTurn(threadId, meta), { threadId });
        },
        (error: unknown) => this.#onError(error, { threadId }),
      );
  }

  follow(threadId: string, options: live.RelayFollowOptions = {}): AsyncIterable<live.RelayRead> {
    return followStored(this, 'Redis', threadId, options);
  }

  async watch(threadId: string, watcher: FollowWatcher): Promise<() => void> {
    const sub = await this.#subscriber();
    const channel = this.#wakeChannel(threadId);
    const watchers = this.#watchers.get(channel);
    const set = watchers ?? new Set<FollowWatcher>();
    set.add(watcher);
    const unwatch = () => {
      set.delete(watcher);
      if (set.size === 0 && this.#watchers.get(channel) === set) {
        this.#watchers.delete(channel);
        void sub.unsubscribe(channel).catch(() => {});
      }
    };
    if (watchers === undefined) {
      this.#watchers.set(channel, set);
      // A subscribe that failed leaves no watcher behind: the next reader subscribes again.
      await sub.subscribe(channel).catch((error: unknown) => {
        unwatch();
        throw error;
      });
    }
    return unwatch;
  }

  async locate(
    threadId: string,
    seen: EventIdParts | undefined,
  ): Promise<StartPoint<StreamPosition>> {
    const { meta } = this.#keys(threadId);
    const [ord, sealed, current] = (await this.#redis.call(
      'HMGET',
      meta,
      seen === undefined ? '#none' : `t:${seen.turnId}`,
      '#sealed',
      '#numbering',
    )) as [string | null, string | null, string | null];
    const numbering = current ?? '';
    if (seen !== undefined && ord !== null && (await this.#gave(threadId, ord, seen))) {
      return {
        position: { numbering, id: `(${ord}-${seen.index}` },
        ord: Number(ord),
        index: seen.index,
        ended: undefined,
        gap: false,
      };
    }
    const last = sealed === null ? 0 : Number(sealed);
    if (seen === undefined && last > 0) {
      // Without an id: from the start of the latest stored turn (kept until the next one ends),
      // so that a reader that comes just as it is stored still gets it.
      return {
        position: { numbering, id: `${last}-0` },
        ord: last - 1,
        index: 0,
        ended: true,
        gap: false,
      };
    }
    return {
      position: { numbering, id: `(${last}-${MAX_SEQ}` },
      ord: last,
      index: 0,
      ended: true,
      gap: seen !== undefined,
    };
  }

  /**
   * Whether the stream holds the event `seen` names, of its epoch: an id of a numbering a process
   * gave before the relay lost the turn (and the continued turn numbered anew) is not one.
   */
  async #gave(threadId: string, ord: string, seen: EventIdParts): Promise<boolean> {
    const id = `${ord}-${seen.index}`;
    const entries = (await this.#redis.call('XRANGE', this.#keys(threadId).stream, id, id)) as
      | StreamEntry[]
      | null;
    const entry = entries?.[0];
    return entry !== undefined && parseFields(entry[1]).epoch === seen.epoch;
  }

  async read(
    threadId: string,
    position: StreamPosition,
    count: number,
  ): Promise<StoredEntry<StreamPosition>[]> {
    const { stream, meta } = this.#keys(threadId);
    const args = [2, stream, meta, position.numbering, position.id, count];
    // Each reader reads on every wake-up: by digest, the script sent whole only to a server
    // whose script cache lacks it (a restart, `SCRIPT FLUSH`), which `EVAL` fills again. A
    // publish sends its script whole: its events must run in order, and a retry after NOSCRIPT
    // could run after the next event's.
    const result = await this.#redis.call('EVALSHA', READ_SCRIPT_SHA, ...args).catch((error) => {
      if (!isNoScript(error)) throw error;
      return this.#redis.call('EVAL', READ_SCRIPT, ...args);
    });
    const [numbering, rows] = result as [string, StreamEntry[]];
    return rows.map(([id, fields]) => {
      const { ord, index } = parseStreamId(id);
      return { position: { numbering, id: `(${id}` }, ord, index, ...parseFields(fields) };
    });
  }

  async lastIndex(threadId: string, turnId: string): Promise<number | undefined> {
    return (await this.#lastEntry(threadId, turnId))?.index;
  }

  async lastEventId(threadId: string, turnId: string): Promise<string | undefined> {
    const last = await this.#lastEntry(threadId, turnId);
    return last === undefined ? undefined : formatEventId(turnId, last.index, last.epoch);
  }

  /** The last event the stream holds of a turn: its index and its numbering's epoch. */
  async #lastEntry(
    threadId: string,
    turnId: string,
  ): Promise<{ index: number; epoch: number | undefined } | undefined> {
    try {
      const { stream, meta } = this.#keys(threadId);
      const ord = (await this.#redis.call('HGET', meta, `t:${turnId}`)) as string | null;
      if (ord === null) return undefined;
      const last = (await this.#redis.call(
        'XREVRANGE',
        stream,
        `${ord}-${MAX_SEQ}`,
        `${ord}-0`,
        'COUNT',
        1,
      )) as StreamEntry[] | null;
      const entry = last?.[0];
      if (entry === undefined) return undefined;
      return { index: parseStreamId(entry[0]).index, epoch: parseFields(entry[1]).epoch };
    } catch (error) {
      throw unavailable('Redis', error);
    }
  }

  async runningTurn(threadId: string): Promise<string | undefined> {
    try {
      // Like `control`: while the connection is down, fail at once instead of waiting in the
      // client's offline queue (`maxRetriesPerRequest: null` would wait for the whole outage).
      await this.#subscriber();
      const running = (await this.#redis.call('HGET', this.#keys(threadId).meta, '#running')) as
        | string
        | null;
      return running ?? undefined;
    } catch (error) {
      throw unavailable('Redis', error);
    }
  }

  async control(threadId: string, message: live.ControlMessage): Promise<live.ControlAnswer> {
    try {
      await this.#subscriber();
      const { request, answer } = this.#exchange.request(threadId, message);
      const listeners = Number(
        await this.#redis.call('PUBLISH', this.#controlChannel(threadId), JSON.stringify(request)),
      );
      // The processes serving the thread listen, each replies: nobody means no turn runs.
      this.#exchange.expect(request.id, listeners);
      return await answer;
    } catch (error) {
      throw unavailable('Redis', error);
    }
  }

  serveControl(threadId: string, handler: live.ControlHandler): () => void {
    // Served, the thread's channel is subscribed again whenever the connection comes back.
    const stop = this.#exchange.serve(threadId, handler);
    const channel = this.#controlChannel(threadId);
    const subscribed = this.#subscriber()
      .then((sub) => sub.subscribe(channel))
      .then(
        () => {},
        (error: unknown) => this.#onError(error, { threadId }),
      );
    // The turn's events go out once the process listens for its control (none is missed).
    const gate = (this.#gates.get(threadId) ?? Promise.resolve()).then(() => subscribed);
    this.#gates.set(threadId, gate);
    void gate.then(() => {
      if (this.#gates.get(threadId) === gate) this.#gates.delete(threadId);
    });
    return () => {
      stop();
      // After the subscribe went out (an unsubscribe sent first would leave the channel
      // subscribed for good), and only if no session here serves the thread by then.
      void subscribed
        .then(async () => {
          if (!this.#exchange.serves(threadId)) await this.#sub?.unsubscribe(channel);
        })
        .catch(() => {});
    };
  }

  async forget(threadId: string): Promise<void> {
    checkThreadId(threadId, 'threadId', 'relay.forget');
    const { stream, meta } = this.#keys(threadId);
    try {
      // Both keys in one step. Readers following the thread need no word of it: their positions
      // name the numbering that ends here (see READ_SCRIPT).
      await this.#redis.call('DEL', stream, meta);
    } catch (error) {
      throw unavailable('Redis', error);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#exchange.close();
    this.#sub?.disconnect();
    this.#sub = undefined;
  }
}

/** Every option of {@link createRedisRelay}: any other key is refused. */
const REDIS_RELAY_OPTIONS: readonly (keyof RedisRelayOptions)[] = [
  'redis',
  'prefix',
  'controlTimeoutMs',
  'ttlMs',
  'onError',
];

/**
 * A relay on Redis (with the `ioredis` client): each thread's events go into a Redis stream
 * whose ids are `<turn number>-<event index>`, so a reader resumes from any event id with one
 * range read; a pub/sub message wakes the readers; control messages travel by pub/sub to the
 * process that runs the turn (it alone listens while its turn runs) and its answer comes back
 * the same way. A turn's `turn-end` prunes the turns before it; a thread's keys expire after
 * `ttlMs` without a turn.
 *
 * @param options - the client, the key prefix, the control timeout
 * @returns the relay
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { createRedisRelay } from 'chunklog/relay';
 *
 * const relay = createRedisRelay({ redis: new Redis('redis://127.0.0.1:6379') });
 * ```
 */
export function createRedisRelay(options: RedisRelayOptions): live.Relay {
  const where = 'createRedisRelay';
  // A misspelt option (`prefx`) would leave the default prefix: apps sharing a Redis would meet.
  readOptions(options, where, REDIS_RELAY_OPTIONS);
  requireMethods(where, 'redis', options?.redis, ['call', 'duplicate'], 'an ioredis client');
  const timeout = options.controlTimeoutMs ?? 5000;
  checkPositiveIntegers(where, [
    ['controlTimeoutMs', timeout],
    ['ttlMs', options.ttlMs ?? 1],
  ]);
  if (
    options.prefix !== undefined &&
    (typeof options.prefix !== 'string' || options.prefix === '')
  ) {
    throw new ChunklogError('invalid-option', `${where}: \`prefix\` must be a non-empty string`, {
      option: 'prefix',
      value: options.prefix,
    });
  }
  return new RedisRelay(options, timeout);
}
