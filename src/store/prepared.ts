import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
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

/**
 * A prepared query per row count, each compiled when first asked for: a multi-row insert's SQL
 * depends on how many rows it holds.
 *
 * @param build - builds the query for `n` rows from `arg(i)` placeholders
 * @returns the prepared query of `n` rows
 */
export function preparedPerCount<R>(
  build: (n: number, db: Kysely<StoreTables>, arg: <T>(index: number) => T) => Compilable<R>,
): (n: number) => PreparedQuery<R> {
  const made = new Map<number, PreparedQuery<R>>();
  return (n) => {
    let prepared = made.get(n);
    if (prepared === undefined) {
      prepared = new PreparedQuery((db, arg) => build(n, db, arg));
      made.set(n, prepared);
    }
    return prepared;
  };
}
