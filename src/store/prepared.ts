import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { DirectSqlite } from './open-sqlite.js';
import type { StoreTables } from './tables.js';

/** A parameter's place in a prepared query, standing in for its value while compiling. */
class Slot {
  constructor(readonly index: number) {}
}

/**
 * A query built with Kysely once and compiled once, then run with new parameter values: the
 * store runs the same few queries over and over, and building and compiling them each time
 * would cost more than running them (on SQLite). The builder receives `arg(i)` placeholders;
 * `execute` puts `args[i]` in their place. The compiled SQL is the same on every connection and
 * in every transaction of one database, so a prepared query belongs to one store.
 */
export class PreparedQuery<R> {
  readonly #build: (db: Kysely<StoreTables>, arg: <T>(index: number) => T) => Compilable<R>;
  #compiled: CompiledQuery<R> | undefined;
  /** Whether the compiled parameters are exactly `args`, in order (no constants, no reordering). */
  #identity = false;

  readonly #prefix: string;

  /**
   * @param build - builds the query from `arg(i)` placeholders
   * @param prefix - text put before the compiled SQL (a marker comment)
   */
  constructor(
    build: (db: Kysely<StoreTables>, arg: <T>(index: number) => T) => Compilable<R>,
    prefix = '',
  ) {
    this.#build = build;
    this.#prefix = prefix;
  }

  /** Runs the query on `db` (the store's Kysely, a connection or a transaction) with `args`. */
  execute(db: Kysely<StoreTables>, args: readonly unknown[]): Promise<QueryResult<R>> {
    const compiled = this.#compile(db);
    return db.executeQuery<R>({ ...compiled, parameters: this.#parameters(compiled, args) });
  }

  /**
   * The query's rows read synchronously through `direct` (the store's own SQLite connection),
   * or undefined when `direct` cannot read now: run {@link execute} then.
   *
   * @param direct - the store's own SQLite connection, when it has one
   * @param db - the store's Kysely (to compile the query on first use)
   * @param args - the parameters
   */
  #rowsNow(
    direct: DirectSqlite | undefined,
    db: Kysely<StoreTables>,
    args: readonly unknown[],
  ): R[] | undefined {
    if (direct === undefined) return undefined;
    const compiled = this.#compile(db);
    return direct.rows(compiled.sql, this.#parameters(compiled, args)) as R[] | undefined;
  }

  /** The rows of the query: read now when `direct` can, else through Kysely on `db`. */
  async rows(
    direct: DirectSqlite | undefined,
    db: Kysely<StoreTables>,
    args: readonly unknown[],
  ): Promise<readonly R[]> {
    return this.#rowsNow(direct, db, args) ?? (await this.execute(db, args)).rows;
  }

  /**
   * Runs `reads` synchronously through `direct`, in one snapshot of the database, `run(args)`
   * giving the query's rows for `args`; false, having run nothing, when `direct` cannot read now.
   */
  inSnapshot(
    direct: DirectSqlite | undefined,
    db: Kysely<StoreTables>,
    reads: (run: (args: readonly unknown[]) => readonly R[]) => void,
  ): boolean {
    if (direct === undefined) return false;
    const compiled = this.#compile(db);
    return direct.inSnapshot((all) =>
      reads((args) => all(compiled.sql, this.#parameters(compiled, args)) as R[]),
    );
  }

  /**
   * The query's rows through `all`, the reader of a snapshot that `DirectSqlite.inSnapshot` runs
   * (for reads that make several queries in one snapshot).
   */
  allIn(
    all: (sql: string, parameters: readonly unknown[]) => unknown[],
    db: Kysely<StoreTables>,
    args: readonly unknown[],
  ): R[] {
    const compiled = this.#compile(db);
    return all(compiled.sql, this.#parameters(compiled, args)) as R[];
  }

  #compile(db: Kysely<StoreTables>): CompiledQuery<R> {
    if (this.#compiled === undefined) {
      const compiled = this.#build(db, (index) => new Slot(index) as never).compile();
      this.#compiled = { ...compiled, sql: this.#prefix + compiled.sql };
      this.#identity = compiled.parameters.every((p, i) => p instanceof Slot && p.index === i);
    }
    return this.#compiled;
  }

  #parameters(compiled: CompiledQuery<R>, args: readonly unknown[]): readonly unknown[] {
    return this.#identity && args.length === compiled.parameters.length
      ? args
      : compiled.parameters.map((p) => (p instanceof Slot ? args[p.index] : p));
  }
}
