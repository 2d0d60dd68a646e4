// store.migrate() asks the database only which tables the current schema holds (the adapter's
// `tableCatalog`), never Kysely's whole-database introspection: that one reads every column of
// every table and, on PostgreSQL, resolves each table by name while it does, so a table another
// connection dropped meanwhile failed the migration ("relation … does not exist", seen when test
// files migrated and dropped tables side by side). On every dialect available.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createChunkStore } from '../../src/store/index.js';
import { dropStoreTables } from '../support/drop-store-tables.js';
import { availableDialects, kyselyFor, randomPrefix } from './support/dialects.js';

const available = await availableDialects();
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** What Kysely's introspection queries read: every column of every table. */
const WHOLE_DATABASE =
  /pg_attribute|pg_get_serial_sequence|information_schema`?\.`?columns|pragma_table_info|table_info\(/i;

describe.each(['sqlite', 'postgres', 'mysql'] as const)('store.migrate() on %s', (name) => {
  it.skipIf(!available.includes(name))(
    'reads only the table catalog, while other connections create and drop tables',
    async () => {
      const file =
        name === 'sqlite' ? join(tmpdir(), `chunklog-catalog-${randomPrefix()}.db`) : undefined;
      const queries: string[] = [];
      const db = kyselyFor(name, file, 2, (sql) => queries.push(sql));
      const other = kyselyFor(name, file, 2);
      const prefix = randomPrefix();
      cleanups.push(async () => {
        await dropStoreTables(db, prefix);
        await db.destroy();
        await other.destroy();
        if (file !== undefined) rmSync(file, { force: true });
      });
      // Tables come and go beside the migration, as other apps' (or tests') tables do.
      let churning = true;
      const churn = (async () => {
        for (let i = 0; churning; i++) {
          const table = `${prefix}churn_${i % 4}`;
          await other.schema.createTable(table).ifNotExists().addColumn('id', 'integer').execute();
          await other.schema.dropTable(table).ifExists().execute();
        }
      })();
      try {
        for (let round = 0; round < 3; round++) {
          const store = createChunkStore({ db }, { tablePrefix: prefix });
          await store.migrate();
          await store.close();
        }
      } finally {
        churning = false;
        await churn;
      }
      expect(queries.length).toBeGreaterThan(0);
      expect(queries.filter((sql) => WHOLE_DATABASE.test(sql))).toEqual([]);
      // The migrated store works, and a second migrate found its tables there.
      const store = createChunkStore({ db }, { tablePrefix: prefix });
      await store.appendTurn('t', [
        { turnId: 'a', step: 0, role: 'user', type: 'text', data: { text: 'hi' } },
      ]);
      expect((await store.getRows('t')).map((r) => r.data)).toEqual([{ text: 'hi' }]);
      await store.close();
    },
  );
});
