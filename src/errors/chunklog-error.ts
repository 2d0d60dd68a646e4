const marker = Symbol.for('chunklog.error');

/**
 * Every reason chunklog can fail for. A string union rather than subclasses so that callers can
 * `switch` on it, and so that errors from two installed copies of chunklog still compare equal.
 */
export type ChunklogErrorCode =
  /** A wire event did not match {@link ChunkEventSchema}. */
  | 'invalid-event'
  /** A chunk did not match {@link ChunkSchema}. */
  | 'invalid-chunk'
  /** A row or row draft did not match its schema. */
  | 'invalid-row'
  /** A chat message did not match {@link ChatMessageSchema}. */
  | 'invalid-message'
  /** An option passed to a public function was out of range or of the wrong type. */
  | 'invalid-option'
  /** An AI SDK message (a UIMessage, or a ModelMessage) is malformed or could not be converted. */
  | 'invalid-ui-message'
  /** A thread was read or written that does not exist (or was deleted). */
  | 'thread-not-found'
  /** A thread was to be created under an id that is already taken. */
  | 'thread-exists'
  /**
   * A thread's rows that forks read by reference were to be deleted (`deleteThread`, or
   * `truncateAfter` below a fork's seq); `value` lists the forks. Delete or truncate them first.
   */
  | 'thread-has-forks'
  /** A stored row no longer parses; `threadId` and `seq` name it. */
  | 'corrupt-row'
  /** The database failed; the driver's error is the `cause`. */
  | 'store-failed'
  /** An optional peer dependency (a database driver) is not installed. */
  | 'missing-dependency'
  /** A page could not be loaded by a window's `loadPage`. */
  | 'load-failed'
  /** A page given to a window did not match the page shape (the `cause` of a `load-failed`). */
  | 'invalid-page'
  /** An operation was attempted on a closed store or session. */
  | 'closed'
  /** Progress was reported for a tool call that is not running in the session's live turn. */
  | 'tool-call-not-running'
  /** A turn was aborted by its caller. */
  | 'aborted'
  /**
   * A store operation did not finish within the store's `timeoutMs` (a stalled connection, a
   * lock held too long); a write was rolled back unless its COMMIT was already in flight.
   */
  | 'store-timeout'
  /** The store's tables are missing or out of date: `migrate()` was never run on this database. */
  | 'not-migrated'
  /** A thread client's request (`chunklog/react`) got an error answer, or a success that is not JSON; `value.status` is the HTTP status. */
  | 'request-failed'
  /** A relay (`chunklog/relay`: Redis, PostgreSQL) could not be reached; resume from the last event id later. */
  | 'relay-unavailable'
  /**
   * A turn id that the thread already holds was begun again (`ChunkStore.beginTurn`, or a
   * session's `send` with `onExistingTurn: 'error'`); `value` is the stored turn's status.
   */
  | 'turn-exists'
  /** Another holder's lease on the thread is live (a session's `send` with `lease.onBusy: 'error'`). */
  | 'thread-busy'
  /**
   * A write under a lease was refused: the lease expired and was taken over (fencing), so the
   * writer must stop writing to the thread.
   */
  | 'lease-lost'
  /** Steps were appended to a turn that is not `running` in the store (it ended, or never began). */
  | 'turn-not-running'
  /**
   * A thread export given to `importThread` (`chunklog/transfer`) is malformed: a line that is not
   * JSON or not of the format, an unknown format version, rows out of order, a file cut short;
   * `path` starts with `'line'` and the line number.
   */
  | 'invalid-export';

/** Structured facts about a failure; every field is optional and JSON-safe. */
export interface ChunklogErrorDetails {
  /** Where in the input the problem is, as a path of keys and indexes. */
  readonly path?: ReadonlyArray<string | number> | undefined;
  /** The offending value (or a short preview of it). */
  readonly value?: unknown;
  /** The thread concerned. */
  readonly threadId?: string | undefined;
  /** The row concerned. */
  readonly seq?: number | undefined;
  /** The option or parameter concerned. */
  readonly option?: string | undefined;
}

/** Options for constructing a {@link ChunklogError}. */
export interface ChunklogErrorOptions extends ChunklogErrorDetails {
  /** The underlying error (a zod error, a database error). */
  readonly cause?: unknown;
}

/**
 * The one error class chunklog throws. Detect it with {@link ChunklogError.isInstance}, which
 * works across duplicate installs, and branch on {@link ChunklogError.code}.
 *
 * @example
 * ```ts
 * try {
 *   await store.getChunks('missing', { limit: 50 });
 * } catch (error) {
 *   if (ChunklogError.isInstance(error) && error.code === 'thread-not-found') {
 *     // show an empty thread
 *   }
 * }
 * ```
 */
export class ChunklogError extends Error {
  /** What went wrong, as a stable string. */
  readonly code: ChunklogErrorCode;
  /** Where in the input the problem is, when known. */
  readonly path: ReadonlyArray<string | number> | undefined;
  /** The offending value, when known. */
  readonly value: unknown;
  /** The thread concerned, when known. */
  readonly threadId: string | undefined;
  /** The row concerned, when known. */
  readonly seq: number | undefined;
  /** The option or parameter concerned, when known. */
  readonly option: string | undefined;

  /**
   * @param code - what went wrong
   * @param message - a sentence a developer can act on
   * @param options - structured details and the `cause`
   */
  constructor(code: ChunklogErrorCode, message: string, options: ChunklogErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    Object.defineProperty(this, marker, { value: true });
    this.name = 'ChunklogError';
    this.code = code;
    this.path = options.path;
    this.value = options.value;
    this.threadId = options.threadId;
    this.seq = options.seq;
    this.option = options.option;
  }

  /**
   * Whether `error` is a chunklog error, from this copy of the library or any other.
   *
   * @param error - anything caught
   * @returns true when `error` was thrown by chunklog
   *
   * @example
   * ```ts
   * } catch (error) {
   *   if (!ChunklogError.isInstance(error)) throw error;
   *   console.warn(error.code, error.message);
   * }
   * ```
   */
  static isInstance(error: unknown): error is ChunklogError {
    return (
      typeof error === 'object' &&
      error !== null &&
      (error as Record<symbol, unknown>)[marker] === true
    );
  }

  /**
   * Whether `error` is a chunklog error with the given code.
   *
   * @param error - anything caught
   * @param code - the code to test for
   * @returns true when `error` is a chunklog error with that code
   *
   * @example
   * ```ts
   * const thread = await store.getThread(id).catch((error) => {
   *   if (ChunklogError.hasCode(error, 'thread-not-found')) return undefined;
   *   throw error;
   * });
   * ```
   */
  static hasCode(error: unknown, code: ChunklogErrorCode): error is ChunklogError {
    return ChunklogError.isInstance(error) && error.code === code;
  }
}

/** The result of a `safe*` function: the value, or the error it would have thrown. */
export type SafeResult<T> =
  | { readonly success: true; readonly value: T }
  | { readonly success: false; readonly error: ChunklogError };
