import { type Backoff, backoffDelay } from '../errors/backoff.js';

/**
 * How the store tells apart the ways a database operation can fail, by the driver's error:
 * a lock conflict (the transaction was rolled back whole, run it again), a lost connection (the
 * transaction was rolled back unless its COMMIT had been sent), or anything else (refused).
 */

/** Network error codes of Node's sockets and of mysql2. */
const NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTCONN',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
]);

/** MySQL/MariaDB error numbers of a connection that is gone (server shutdown, killed, lost). */
const LOST_ERRNOS: ReadonlySet<number> = new Set([1053, 1927, 2006, 2013]);

/** PostgreSQL SQLSTATEs of a connection that is gone: the server shut down or is starting. */
const LOST_SQLSTATES: ReadonlySet<string> = new Set(['57P01', '57P02', '57P03']);

/** What pg and Kysely say when the connection under a query is gone. */
const LOST_MESSAGE =
  /Connection terminated|not queryable|connection is in closed state|Connection lost|connection has been discarded/i;

function fieldsOf(error: unknown): {
  code?: unknown;
  errno?: unknown;
  fatal?: unknown;
  message?: unknown;
} {
  return typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
}

/**
 * Whether an error says that the connection to the database was lost (or could not be made):
 * the server closed it, the network dropped it, the server is shutting down or starting.
 *
 * @param error - the driver's error
 * @returns true for a lost connection; false for an error the database answered with
 */
export function isConnectionLost(error: unknown): boolean {
  const { code, errno, fatal, message } = fieldsOf(error);
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || LOST_SQLSTATES.has(code) || code.startsWith('08')) return true;
  }
  if (typeof errno === 'number' && LOST_ERRNOS.has(errno)) return true;
  // mysql2 marks errors of the connection itself (not of a statement) as fatal.
  if (fatal === true && typeof errno !== 'number') return true;
  return typeof message === 'string' && LOST_MESSAGE.test(message);
}

/**
 * Whether a failed write transaction was rolled back whole by a lock conflict and can simply be
 * run again: SQLite busy, a PostgreSQL deadlock or serialization failure, a MySQL deadlock or
 * lock wait timeout.
 *
 * @param error - the driver's error
 * @returns true when the transaction can be retried
 */
export function isLockConflict(error: unknown): boolean {
  const { code, errno } = fieldsOf(error);
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT') return true;
  if (code === '40P01' || code === '40001') return true;
  return errno === 1213 || errno === 1205;
}

/** Attempts of an operation whose connection was lost (a restart, a stale pooled connection). */
export const LOST_CONNECTION_ATTEMPTS = 5;

/** The wait after a lock conflict: 20 ms, doubling to 640 ms, jittered. */
const CONFLICT_BACKOFF: Backoff = { initialMs: 20, maxMs: 640, jitter: true };

/** The wait after a lost connection (a restarting server needs a moment): 100 ms to 3.2 s. */
const LOST_CONNECTION_BACKOFF: Backoff = { initialMs: 100, maxMs: 3200, jitter: true };

/**
 * The jittered wait before attempt `attempt + 1`: short after a lock conflict, longer after a
 * lost connection.
 *
 * @param attempt - the attempt that failed, from 1
 * @param lost - whether it failed for a lost connection
 * @returns milliseconds
 */
export function retryDelay(attempt: number, lost: boolean): number {
  return backoffDelay(lost ? LOST_CONNECTION_BACKOFF : CONFLICT_BACKOFF, attempt - 1);
}
