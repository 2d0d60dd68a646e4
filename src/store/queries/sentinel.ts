import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { StoreTables } from '../tables.js';

/**
 * A retention sentinel is the single `system` row `expire` writes where removed turns were, and
 * its turn id is `expired-` followed by its own seq (notes/0121). Turn ids are the client's to
 * choose, so a client turn may be called `expired-…` too: only the exact form (role `system`, the
 * row's own seq) marks a sentinel, wherever one is recognised, in SQL or in JavaScript.
 */
const SENTINEL_PREFIX = 'expired-';

/** The turn id of the sentinel at `seq`. */
export function sentinelTurnId(seq: number): string {
  return `${SENTINEL_PREFIX}${seq}`;
}

/** Whether a row is a retention sentinel, by its seq, turn id and role. */
export function isSentinelRow(row: {
  readonly seq: number;
  readonly turnId: string;
  readonly role: string;
}): boolean {
  return row.role === 'system' && row.turnId === sentinelTurnId(row.seq);
}

/**
 * `isSentinelRow` in SQL, over a `chunks` row. `concat` (with the prefix as a literal, so that
 * PostgreSQL knows its type) reads the same on SQLite, PostgreSQL and MySQL.
 */
export function sentinelRowSql(eb: ExpressionBuilder<StoreTables, 'chunks'>): Expression<SqlBool> {
  return eb.and([
    eb('role', '=', 'system'),
    eb('turn_id', '=', eb.fn<string>('concat', [sql.lit(SENTINEL_PREFIX), eb.ref('seq')])),
  ]);
}
