// A process that opens a store on a database URL with a pool of the store's own
// (`createChunkStore({ postgres })` with pool options, `({ mysql })` with a URL), writes and reads
// one turn, closes the store and does nothing else: it exits by itself only if `close()` ended
// the pool.
import { createChunkStore } from '../../../src/store/index.js';

const [key, url, prefix] = process.argv.slice(2) as ['postgres' | 'mysql', string, string];
// pg's pool would end idle connections after 10 s by itself; with 0 it keeps them until ended.
const target =
  key === 'postgres'
    ? { postgres: { connectionString: url, idleTimeoutMillis: 0 } }
    : { mysql: url };
const store = createChunkStore(target, {
  tablePrefix: prefix,
});
await store.migrate();
await store.appendTurn('owned', [
  { turnId: 't1', role: 'user', type: 'text', data: { text: 'hello' }, step: 0 },
]);
const rows = await store.getRows('owned');
await store.close();
process.send?.({ dialect: store.dialect, texts: rows.map((r) => r.data) });
