// Shared helper for the _probe_history_* probes: one store per dialect on unique tables.
import { Kysely, MysqlDialect, PostgresDialect } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createChunkStore } from '../dist/store/index.js';

const rnd = () => Math.random().toString(36).slice(2, 8);

/** Opens a fresh, migrated store on `dialect` with a unique table prefix. */
export async function openStores(dialect, optionsList = [{}]) {
  const prefix = `ph_${rnd()}_`;
  const closers = [];
  const stores = [];
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'probe-history-'));
    const file = join(dir, 'probe.db');
    for (const o of optionsList) stores.push(createChunkStore({ sqlite: file }, { tablePrefix: prefix, ...o }));
  } else if (dialect === 'postgres') {
    for (const o of optionsList) {
      const db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:5432/test', max: 4 }) }) });
      closers.push(() => db.destroy());
      stores.push(createChunkStore({ db }, { tablePrefix: prefix, ...o }));
    }
  } else {
    for (const o of optionsList) {
      const db = new Kysely({ dialect: new MysqlDialect({ pool: createPool({ uri: 'mysql://root@127.0.0.1:3306/test', connectionLimit: 4 }) }) });
      closers.push(() => db.destroy());
      stores.push(createChunkStore({ db }, { tablePrefix: prefix, ...o }));
    }
  }
  await stores[0].migrate();
  return {
    stores,
    prefix,
    async close() {
      for (const s of stores) await s.close();
      for (const c of closers) await c();
    },
  };
}

export const DIALECTS = ['sqlite', 'postgres', 'mysql'];

export const user = (turnId, text) => ({ turnId, step: 0, role: 'user', type: 'text', data: { text } });
export const asst = (turnId, text) => ({ turnId, step: 0, role: 'assistant', type: 'text', data: { text } });
export const turn = (turnId, q, a) => [user(turnId, q), asst(turnId, a)];
export const strip = (rows) => rows.map(({ createdAt, ...r }) => r);
