// The tables a migrated chunk store holds under its prefix, and their removal, for tests and
// benches that create stores under a random prefix and clean up after themselves.
import { type Kysely, sql } from 'kysely';

/** Every table `store.migrate()` creates, children before parents (so drops need no cascade). */
export const STORE_TABLES = [
  'history_states',
  'snapshots',
  'usage',
  'turns',
  'leases',
  'chunks',
  'threads',
  'migrations',
  'migration_lock',
] as const;

/** Drops the store tables under `prefix` that exist. */
// biome-ignore lint/suspicious/noExplicitAny: raw access to tables named at run time
export async function dropStoreTables(db: Kysely<any>, prefix: string): Promise<void> {
  for (const table of STORE_TABLES) {
    await sql`drop table if exists ${sql.table(`${prefix}${table}`)}`.execute(db);
  }
}
