import type { ChunkEvent } from '../schema/chunk-event.js';
import { idProblem } from '../schema/id.js';
import type { EventMeta, Replay } from './event-meta.js';

interface Entry {
  readonly event: ChunkEvent;
  readonly meta: EventMeta;
}

interface BufferedTurn {
  readonly turnId: string;
  /** The kept events; `events[i]` has index `base + i`. */
  events: Entry[];
  base: number;
  /** Stored: a client without a last event id reads it from the store. */
  sealed: boolean;
}

interface KnownTurn {
  readonly turnId: string;
  /** The index of its `turn-end`, once it ended. */
  last: number | undefined;
  /** The epoch of its `turn-end`'s id (see {@link formatEventId}). */
  lastEpoch: number | undefined;
}

/** How many turns are remembered to tell a clean resume from a gap. */
const KNOWN_TURNS = 64;

/**
 * The parts of an event id: its turn, its index, and for a turn continued after a crash the
 * epoch of the numbering it belongs to.
 */
export interface EventIdParts {
  readonly turnId: string;
  readonly index: number;
  /**
   * The seq of the `resumed` row the continuation that gave the id stored (`t1:r12.0` → 12); absent
   * for the events of a turn's first run. Two numberings of one turn never share an epoch.
   */
  readonly epoch?: number | undefined;
}

/**
 * The id of a turn's event: `${turnId}:${index}`, or `${turnId}:r${epoch}.${index}` for an event of
 * a turn continued after a crash (its epoch: the seq of the `resumed` row its continuation stored).
 *
 * @param turnId - the turn
 * @param index - the event's index in its turn
 * @param epoch - the continuation's epoch, when the turn is a continued one
 * @returns the id
 *
 * @example
 * ```ts
 * formatEventId('t1', 4); // 't1:4'
 * formatEventId('t1', 0, 12); // 't1:r12.0'
 * ```
 */
export function formatEventId(turnId: string, index: number, epoch?: number): string {
  return epoch === undefined ? `${turnId}:${index}` : `${turnId}:r${epoch}.${index}`;
}

/**
 * Parses an event id `${turnId}:${index}` (or `${turnId}:r${epoch}.${index}`, an event of a turn
 * continued after a crash, its epoch the seq of the `resumed` row its continuation stored).
 *
 * @param id - the id (a `Last-Event-ID` header)
 * @returns the turn, index and epoch, or undefined when the id is malformed (or not a string), or
 *   its turn id is not one a turn can have (see `idProblem`)
 *
 * @example
 * ```ts
 * parseEventId('t1:42'); // { turnId: 't1', index: 42 }
 * parseEventId('t1:r12.0'); // { turnId: 't1', index: 0, epoch: 12 }
 * parseEventId('nope');  // undefined
 * ```
 */
export function parseEventId(id: string): EventIdParts | undefined {
  if (typeof id !== 'string') return undefined;
  const colon = id.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const tail = /^(?:r(\d{1,15})\.)?(\d{1,15})$/.exec(id.slice(colon + 1));
  if (tail === null) return undefined;
  const turnId = id.slice(0, colon);
  if (idProblem(turnId) !== undefined) return undefined;
  const index = Number(tail[2]);
  return tail[1] === undefined ? { turnId, index } : { turnId, index, epoch: Number(tail[1]) };
}

/** The epoch of an id this buffer gave (undefined: a turn's first run). */
function epochOf(id: string): number | undefined {
  return parseEventId(id)?.epoch;
}

/**
 * The events of the recent turns that a reconnecting client may still need: every turn not yet
 * stored, and the latest one. A client that gives the id of the last event it saw gets exactly
 * the events after it (nothing twice); when some of those are gone (a turn already stored and
 * dropped from the buffer, or the oldest events of a turn longer than `limit`), the replay says
 * so with `gap` and the client reloads from the store.
 *
 * @example
 * ```ts
 * const buffer = new ReplayBuffer(10_000);
 * buffer.begin('t1');
 * buffer.push({ type: 'turn-start', turnId: 't1' }, { id: 't1:0', turnId: 't1', index: 0 });
 * buffer.since('t1:0'); // { events: [], gap: false }
 * ```
 */
export class ReplayBuffer {
  readonly #limit: number;
  #buffered: BufferedTurn[] = [];
  #known: KnownTurn[] = [];

  /** @param limit - how many events of one turn to keep at most */
  constructor(limit: number) {
    this.#limit = limit;
  }

  /**
   * Starts buffering a turn (its `turn-start` comes next). `firstIndex` is the index of its first
   * event here: 0, or where a turn taken over after a crash numbers on from (the events before
   * it were published by the dead process; a reader that asks for them gets `gap`).
   */
  begin(turnId: string, firstIndex = 0): void {
    // Keep the turns that are not stored yet; a stored one is read from the store.
    this.#buffered = this.#buffered.filter((t) => !t.sealed && t.turnId !== turnId);
    this.#buffered.push({ turnId, events: [], base: firstIndex, sealed: false });
    this.#known = this.#known.filter((k) => k.turnId !== turnId);
    this.#known.push({ turnId, last: undefined, lastEpoch: undefined });
    if (this.#known.length > KNOWN_TURNS) this.#known.shift();
  }

  /** The index of the last event kept of a turn, or undefined when none is. */
  lastIndex(turnId: string): number | undefined {
    const turn = this.#find(turnId);
    return turn?.events[turn.events.length - 1]?.meta.index;
  }

  /** The id of the last event kept of a turn, or undefined when none is. */
  lastEventId(turnId: string): string | undefined {
    const turn = this.#find(turnId);
    return turn?.events[turn.events.length - 1]?.meta.id;
  }

  /** Keeps an event. */
  push(event: ChunkEvent, meta: EventMeta): void {
    const turn = this.#find(meta.turnId);
    if (turn === undefined) return;
    turn.events.push({ event, meta });
    if (event.type === 'turn-end') {
      const known = this.#known.find((k) => k.turnId === meta.turnId);
      if (known) {
        known.last = meta.index;
        known.lastEpoch = epochOf(meta.id);
      }
    }
    if (turn.events.length > this.#limit + (this.#limit >> 2)) {
      const drop = turn.events.length - this.#limit;
      turn.events = turn.events.slice(drop);
      turn.base += drop;
    }
  }

  /** Records that a turn is in the store. The latest turn stays buffered until the next begins. */
  sealed(turnId: string): void {
    const turn = this.#find(turnId);
    if (turn === undefined) return;
    turn.sealed = true;
    const latest = this.#buffered[this.#buffered.length - 1];
    this.#buffered = this.#buffered.filter((t) => !t.sealed || t === latest);
  }

  /**
   * Whether `seen` may be an id this buffer gave of a turn it knows: the event kept at its index
   * has its epoch. An index beyond the last event given, or an epoch of another numbering, is
   * not (an index no longer kept cannot be told apart: the reader gets a gap either way).
   */
  #gave(known: KnownTurn | undefined, seen: EventIdParts): boolean {
    if (known === undefined) return false;
    const turn = this.#find(known.turnId);
    if (turn === undefined) {
      // Stored and no longer kept: only its last event can be told apart.
      if (known.last === undefined || seen.index < known.last) return true;
      return seen.index === known.last && seen.epoch === known.lastEpoch;
    }
    const at = seen.index - turn.base;
    if (at < 0) return true;
    const entry = turn.events[at];
    return entry !== undefined && epochOf(entry.meta.id) === seen.epoch;
  }

  #find(turnId: string): BufferedTurn | undefined {
    const last = this.#buffered[this.#buffered.length - 1];
    if (last?.turnId === turnId) return last;
    return this.#buffered.find((t) => t.turnId === turnId);
  }

  /**
   * Every turn still buffered from its start: the latest stored one (kept until the next turn
   * begins) and those not stored yet. A relay's reader without an id starts here, so that a
   * client that read the store just before a turn was stored still gets that turn (a window
   * ignores the replay of a turn it already has from the store).
   *
   * @returns the events, in order, and whether some of them are gone
   */
  latest(): Replay {
    const events: Entry[] = [];
    let gap = false;
    for (const turn of this.#buffered) {
      if (turn.base > 0) gap = true;
      for (const entry of turn.events) events.push(entry as Entry);
    }
    return { events, gap };
  }

  /**
   * What a client that saw `lastEventId` (or nothing yet) needs.
   *
   * @param lastEventId - the id of the last event the client received
   * @returns the events it has not seen, in order, and whether some it missed are gone
   */
  since(lastEventId?: string | null): Replay {
    const events: Entry[] = [];
    let gap = false;
    const take = (turn: BufferedTurn, from: number) => {
      if (from < turn.base) gap = true;
      const start = Math.max(0, from - turn.base);
      for (let i = start; i < turn.events.length; i++) events.push(turn.events[i] as Entry);
    };
    const unsealed = () => {
      for (const turn of this.#buffered) if (!turn.sealed) take(turn, 0);
    };
    if (lastEventId == null || lastEventId === '') {
      unsealed();
      return { events, gap };
    }
    const seen = parseEventId(lastEventId);
    const position =
      seen === undefined ? -1 : this.#known.findIndex((k) => k.turnId === seen.turnId);
    if (seen === undefined || position === -1 || !this.#gave(this.#known[position], seen)) {
      // A turn this process does not know (another process, a restart), or an id of it this
      // buffer did not give (a numbering of a process that died before this one continued the
      // turn): reload, then go live.
      unsealed();
      return { events, gap: true };
    }
    for (let p = position; p < this.#known.length; p++) {
      const known = this.#known[p] as KnownTurn;
      const from = p === position ? seen.index + 1 : 0;
      const turn = this.#find(known.turnId);
      if (turn !== undefined) {
        take(turn, from);
      } else if (known.last === undefined || from <= known.last) {
        gap = true; // events of a turn no longer buffered
      }
    }
    return { events, gap };
  }
}
