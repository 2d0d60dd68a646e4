import { ChunklogError } from '../errors/index.js';
import type { EventMeta } from '../live/event-meta.js';
import type { RelayFollowOptions, RelayRead } from '../live/relay.js';
import { type EventIdParts, formatEventId, parseEventId } from '../live/replay-buffer.js';
import { Wake } from '../live/wake.js';
import type { ChunkEvent } from '../schema/chunk-event.js';

/** One stored event of a thread, as a remote relay keeps it. */
export interface StoredEntry<P> {
  /** Where it is in the thread's log (a stream id, a row number). */
  readonly position: P;
  /** The turn's number in the thread (1, 2, …): turns follow each other without holes. */
  readonly ord: number;
  readonly index: number;
  readonly turnId: string;
  /**
   * The epoch of the numbering it belongs to, for an event of a turn continued after a crash
   * (see `formatEventId`); undefined for a turn's first run, and for an entry written by a
   * version of the relay that kept none.
   */
  readonly epoch?: number | undefined;
  /** The event, as JSON. */
  readonly json: string;
}

/**
 * The epoch an event's id carries (`t1:r12.0` → 12), for a relay to keep with the event; undefined
 * for a plain id, and for an id that does not name the event's turn and index (a relay gives its
 * readers the id it formats from the turn, index and epoch it keeps).
 */
export function epochOf(meta: EventMeta): number | undefined {
  const parts = parseEventId(meta.id);
  return parts?.turnId === meta.turnId && parts.index === meta.index ? parts.epoch : undefined;
}

/** Where a reader starts: after `position`, having seen event `index` of turn `ord`. */
export interface StartPoint<P> {
  readonly position: P;
  /** The last turn seen and its last index; `ended` when it is known to be over. */
  readonly ord: number;
  readonly index: number;
  readonly ended: boolean | undefined;
  /** Whether events the reader asked for are gone (an unknown or pruned turn). */
  readonly gap: boolean;
}

/** A reader's subscription to a thread's wake-ups. */
export interface FollowWatcher {
  /** Notified when events may have landed. */
  readonly wake: Wake;
  /** Called when the connection drops. */
  lost(error: unknown): void;
}

/**
 * What a remote relay's storage offers the shared reader. A thread forgotten (`relay.forget`) and
 * written again must not hide its new entries behind the positions readers got before: `read`
 * gives them whatever the position (PostgreSQL's row numbers never go back; a Redis position
 * names the numbering it belongs to), and the reader's check that entries follow each other
 * reports the gap.
 */
export interface FollowBackend<P> {
  /** Subscribes to wake-ups of the thread. */
  watch(threadId: string, watcher: FollowWatcher): Promise<() => void>;
  /**
   * Where to start for a reader that saw `seen` (or nothing). An id it did not give (no event at
   * that index, or one of another epoch: a numbering of a process that died before the turn was
   * continued anew) is a gap, as an unknown turn's.
   */
  locate(threadId: string, seen: EventIdParts | undefined): Promise<StartPoint<P>>;
  /**
   * Up to `count` entries after `position`, in order; when the thread was forgotten since the
   * position was read, its entries from the first kept.
   */
  read(threadId: string, position: P, count: number): Promise<readonly StoredEntry<P>[]>;
}

const READ_BATCH = 512;

/** The error a reader ends with when the relay cannot be reached. */
export function unavailable(what: string, cause: unknown): ChunklogError {
  if (ChunklogError.hasCode(cause, 'relay-unavailable')) return cause;
  return new ChunklogError(
    'relay-unavailable',
    `The ${what} relay could not be reached; resume from the last event id once it is back`,
    { cause },
  );
}

/**
 * Reads a thread's events from a remote relay's storage: from where the reader stands, then each
 * batch a wake-up announces. It checks that the events follow each other (the next index of the
 * turn of the same id, or the start of the next turn after an end) and reports a gap otherwise:
 * after a thread was forgotten meanwhile (`relay.forget`), its next turn is numbered from 1
 * again, which follows nothing a reader got before.
 *
 * @param backend - the storage
 * @param what - the relay's name for errors
 * @param threadId - the thread
 * @param options - where to resume, and when to stop
 */
export async function* followStored<P>(
  backend: FollowBackend<P>,
  what: string,
  threadId: string,
  options: RelayFollowOptions,
): AsyncGenerator<RelayRead> {
  const wake = new Wake();
  let failure: unknown;
  /** The read in flight's reject, so that a lost connection fails it at once. */
  let failRead: ((error: unknown) => void) | undefined;
  // A read in flight when the connection drops may wait in the client's offline queue: the
  // reader fails at once instead. Each read holds its own settle functions, dropped when it
  // settles: nothing accumulates however long the reader follows.
  const orLost = <T>(read: Promise<T>): Promise<T> => {
    if (failure !== undefined) return Promise.reject(failure);
    return new Promise<T>((resolve, reject) => {
      failRead = reject;
      read.then(
        (value) => {
          failRead = undefined;
          resolve(value);
        },
        (error: unknown) => {
          failRead = undefined;
          reject(error);
        },
      );
    });
  };
  const stopped = (): boolean => options.signal?.aborted === true;
  let unwatch: (() => void) | undefined;
  try {
    const watching = backend.watch(threadId, {
      wake,
      lost: (error) => {
        failure = error;
        failRead?.(error);
        wake.notify();
      },
    });
    try {
      unwatch = await orLost(watching);
    } catch (error) {
      // A subscription still on its way when the connection dropped: undone once it lands.
      void watching.then(
        (undo) => undo(),
        () => {},
      );
      throw unavailable(what, error);
    }
    const id = options.lastEventId;
    const seen = id == null || id === '' ? undefined : parseEventId(id);
    let start: StartPoint<P>;
    try {
      start = await orLost(backend.locate(threadId, seen));
    } catch (error) {
      throw unavailable(what, error);
    }
    /** The last read given was a gap: another one before an event would tell nothing more. */
    let gapped = start.gap || (seen === undefined && id != null && id !== '');
    if (gapped) yield { type: 'gap' };
    let position = start.position;
    let ord = start.ord;
    let index = start.index;
    let ended = start.ended;
    /** The turn of the last event given: an entry of another turn is no copy of one seen. */
    let turnId = seen?.turnId;
    for (;;) {
      // Aborted: one last read gives what is stored by now, then the iteration ends.
      const stopping = stopped();
      if (failure !== undefined) throw unavailable(what, failure);
      let entries: readonly StoredEntry<P>[];
      try {
        entries = await orLost(backend.read(threadId, position, READ_BATCH));
      } catch (error) {
        throw unavailable(what, error);
      }
      for (const entry of entries) {
        if (entry.ord === ord && entry.index <= index && entry.turnId === turnId) {
          // Written twice (a write retried after its answer was lost): seen already.
          position = entry.position;
          continue;
        }
        // A turn numbered like the last one but of another id is a turn numbered anew (the thread
        // was forgotten meanwhile): it does not follow, whatever its index. Nor does the last
        // turn's own id under the next number: that turn started again, numbered anew (continued
        // after its relay could not say how far it got), even when where the reader stood did not
        // tell whether it had ended. Left: a reader that read nothing while the thread was
        // forgotten and its next turns ran until the first were pruned takes the first kept,
        // numbered k, for the sequel of its last, k - 1 (entries name no numbering here:
        // PostgreSQL keeps none).
        const follows =
          entry.ord === ord
            ? entry.index === index + 1 && entry.turnId === turnId
            : entry.index === 0 &&
              entry.ord === ord + 1 &&
              ended !== false &&
              entry.turnId !== turnId;
        if (!follows && !gapped) yield { type: 'gap' };
        gapped = false;
        const event = JSON.parse(entry.json) as ChunkEvent;
        position = entry.position;
        ord = entry.ord;
        index = entry.index;
        ended = event.type === 'turn-end';
        turnId = entry.turnId;
        yield {
          type: 'event',
          event,
          meta: {
            id: formatEventId(entry.turnId, entry.index, entry.epoch),
            turnId: entry.turnId,
            index: entry.index,
          },
        };
      }
      if (stopping) return;
      if (entries.length < READ_BATCH) await wake.wait(options.signal);
    }
  } finally {
    unwatch?.();
  }
}
