// Probe: the documented shutdown order (close the session, then `await relay.close()`, then the
// pool) on the PostgreSQL relay drops the events the session published last — a turn cancelled by
// close(): its `cancelled` chunk and its `turn-end`. PostgresRelayImpl.#flush stops at #closed,
// and close() destroys the LISTEN connection the INSERTs run on, without waiting for the queue.
// Other instances then see the turn running on the relay for good.
import pg from 'pg';
import { createPostgresRelay } from '/work/main/dist/relay/index.js';
import { createAgentSession } from '/work/main/dist/session/index.js';
import { createChunkStore } from '/work/main/dist/store/index.js';
import { createScriptedModel } from '/work/main/dist/testing/index.js';

const URL = 'postgres://postgres@127.0.0.1:5432/test';
const table = `probe_pgclose_${process.pid}`;
const runs = Number(process.argv[2] ?? 10);
const setupPool = new pg.Pool({ connectionString: URL });
await createPostgresRelay({ pool: setupPool, table }).migrate();
const store = createChunkStore({ sqlite: ':memory:' });
await store.migrate();
let lost = 0;
for (let run = 0; run < runs; run++) {
  const pool = new pg.Pool({ connectionString: URL });
  const relay = createPostgresRelay({ pool, table });
  const threadId = `probe-pgclose-${process.pid}-${run}`;
  const model = createScriptedModel(() => ({
    parts: [{ type: 'text', text: 'Working on it' }, { type: 'delay', ms: 60_000 }, { type: 'text', text: 'done' }],
  }));
  const session = createAgentSession({ store, threadId, model, relay, lease: false });
  const turn = session.send('go');
  await new Promise((r) => setTimeout(r, 300)); // the turn streams; its first events land
  const before = await createPostgresRelay({ pool: setupPool, table }).runningTurn(threadId);
  // SIGTERM handler, as docs/session.md "Shutting down" says:
  await session.close();
  await relay.close();
  await pool.end();
  const { outcome } = await turn.result;
  const other = createPostgresRelay({ pool: setupPool, table });
  await new Promise((r) => setTimeout(r, 500));
  const running = await other.runningTurn(threadId);
  const { rows } = await setupPool.query(`SELECT idx, event FROM ${table} WHERE thread_id = $1 ORDER BY pos`, [threadId]);
  if (running !== undefined) lost++;
  console.log(`run ${run}: before close runningTurn=${before === turn.turnId ? 'the turn' : before}; turn ${outcome} in the store; relay rows=${rows.length} last=${rows.at(-1)?.event}; other instance runningTurn=${running === turn.turnId ? 'the turn (still running!)' : '(none)'}`);
}
console.log(`turn-end missing on the relay in ${lost}/${runs} runs`);
await setupPool.query(`DROP TABLE ${table}`);
await setupPool.end();
await store.close();
