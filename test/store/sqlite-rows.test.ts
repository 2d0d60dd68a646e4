// The SQLite database the store opens hands Kysely the rows better-sqlite3 would: objects keyed by
// column in column order, a later column of the same name winning, for `execute` and `stream`
// alike (open-sqlite.ts reads them as arrays and makes the objects itself).
import Database from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite } from '../../src/store/open-sqlite.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const QUERY = 'select 1 as a, null as b, x.n as n, x.t as t, 2 as a from x order by n';

describe('rows of the store’s SQLite database', () => {
  it('are the objects better-sqlite3 makes, for every query and for a stream', async () => {
    const db = openSqlite(':memory:');
    closers.push(() => db.destroy());
    await sql`create table x (n integer, t text, b blob)`.execute(db);
    await sql`insert into x values (1, 'one', x'00ff'), (2, 'two', null)`.execute(db);
    const expected = new Database(':memory:');
    expected.exec(
      "create table x (n integer, t text, b blob); insert into x values (1, 'one', x'00ff'), (2, 'two', null)",
    );
    const theirs = expected.prepare(QUERY).all();
    const ours = (await sql.raw(QUERY).execute(db)).rows;
    expect(ours).toEqual(theirs);
    expect(ours.map((row) => Object.keys(row as object))).toEqual(
      theirs.map((row) => Object.keys(row as object)),
    );
    expect(ours[0]).toEqual({ a: 2, b: null, n: 1, t: 'one' });
    const streamed: unknown[] = [];
    const table = db as unknown as Kysely<{ x: { n: number; t: string } }>;
    for await (const row of table.selectFrom('x').select(['n', 't']).orderBy('n').stream(1)) {
      streamed.push(row);
    }
    expect(streamed).toEqual(expected.prepare('select n, t from x order by n').all());
    const blob = (await sql`select b from x where n = 1`.execute(db)).rows[0] as { b: Buffer };
    expect([...blob.b]).toEqual([0, 255]);
    const write = await sql`update x set t = 'uno' where n = 1`.execute(db);
    expect(write.numAffectedRows).toBe(1n);
    expected.close();
  });
});
