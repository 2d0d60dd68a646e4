/**
 * Keeps a PostgreSQL connection that drops while a client is checked out of a `pg` pool from
 * killing the process.
 *
 * pg-pool listens for `error` on a client only while the client sits idle in the pool; while
 * it is checked out (as it is for every query and transaction the store runs through Kysely),
 * the listener is removed. When the connection then drops, pg fails the query in flight with
 * the error — which the store reports — and also emits `error` on the client, which with no
 * listener becomes an uncaught exception: the whole process dies. `pool.on('error')` does not
 * help, and Kysely does not expose the clients it checks out.
 *
 * The guard makes an `error` emitted on a checked-out pool client with no listener of its own
 * a no-op: the query in flight has already failed with that error, and pg-pool discards the
 * client when it is released. Every other `error` is emitted as before: a client with
 * listeners gets them called; a client outside any pool (no `release`) still throws. It is
 * installed once per process on the `pg` that the store's import resolves to — with a
 * deduplicated install, the one the application's pools use.
 */

/** The parts of pg's `Client` the guard touches, typed structurally. */
interface PgClientLike {
  release?: unknown;
  listenerCount(event: string): number;
}

type Emit = (this: PgClientLike, event: string | symbol, ...args: unknown[]) => boolean;

const GUARDED = Symbol.for('chunklog.pg-guard');

let installing: Promise<boolean> | undefined;

/**
 * Installs the guard on the `pg` module's `Client`, once per process.
 *
 * @returns whether `pg` was found and is guarded (false when it is not installed: another
 *   PostgreSQL driver is in use, which is left alone)
 */
export function guardPostgresClients(): Promise<boolean> {
  installing ??= import(/* @vite-ignore */ 'pg').then(
    (loaded: { default?: unknown; Client?: unknown }) => {
      const pg = (loaded.default ?? loaded) as { Client?: { prototype?: unknown } };
      const proto = pg.Client?.prototype as
        | (Record<PropertyKey, unknown> & { emit?: Emit })
        | undefined;
      if (proto === undefined || typeof proto.emit !== 'function') return false;
      guardPrototype(proto as Record<PropertyKey, unknown> & { emit: Emit });
      return true;
    },
    () => false,
  );
  return installing;
}

/**
 * Wraps `emit` on a client prototype (exported for the tests of other `pg`-like clients).
 *
 * @param proto - the prototype of a pg `Client`
 */
export function guardPrototype(proto: Record<PropertyKey, unknown> & { emit: Emit }): void {
  if (proto[GUARDED] === true) return;
  const emit = proto.emit;
  Object.defineProperty(proto, 'emit', {
    configurable: true,
    writable: true,
    value: function guardedEmit(this: PgClientLike, event: string | symbol, ...args: unknown[]) {
      if (
        event === 'error' &&
        typeof this.release === 'function' &&
        this.listenerCount('error') === 0
      ) {
        return false;
      }
      return emit.call(this, event, ...args);
    },
  });
  Object.defineProperty(proto, GUARDED, { value: true });
}
