// docs/store.md (Retention): "a page that reaches the sentinel says hasMore: false". A full page
// whose oldest row is the sentinel says hasMore: true (plain thread, every dialect).
import { DIALECTS, openStores, turn } from './_probe_history_lib.mjs';

for (const dialect of DIALECTS) {
  const { stores: [store], close } = await openStores(dialect);
  const T = `s-${Date.now()}`;
  const old = new Date(Date.now() - 10 * 86_400_000);
  for (let i = 1; i <= 3; i++) await store.appendTurn(T, turn(`o${i}`, 'q', 'a'), { createdAt: old });
  await store.appendTurn(T, turn('n1', 'q', 'a'));
  await store.expire({ before: new Date(Date.now() - 86_400_000), threadId: T });
  const rows = await store.getRows(T); // sentinel + 2 rows
  const page = await store.getChunks(T, { limit: rows.length });
  const next = await store.getChunks(T, { limit: rows.length, before: page.oldestSeq });
  console.log(dialect, { sentinelSeq: rows[0].seq, pageOldest: page.oldestSeq, reachesSentinel: page.chunks[0].type === 'system', hasMore: page.hasMore, nextPageRows: next.chunks.length });
  await close();
}
