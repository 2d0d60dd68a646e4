// A fork of an expired thread: the same getChunks page answers hasMore differently depending on
// whether this store object has read the fork's row before (the fork-seq hint in path-rows.ts).
import { DIALECTS, openStores, turn } from './_probe_history_lib.mjs';

for (const dialect of DIALECTS) {
  const { stores: [store, fresh], close } = await openStores(dialect, [{}, {}]);
  const P = `p-${Date.now()}`;
  const old = new Date(Date.now() - 10 * 86_400_000);
  for (let i = 1; i <= 4; i++) await store.appendTurn(P, turn(`old${i}`, `q${i}`, `a${i}`), { createdAt: old });
  for (let i = 1; i <= 3; i++) await store.appendTurn(P, turn(`new${i}`, `q${i}`, `a${i}`));
  await store.expire({ before: new Date(Date.now() - 86_400_000), threadId: P });
  const rows = await store.getRows(P);
  const first = rows[0].seq; // the sentinel
  const F = `${P}-fork`;
  const lastSeq = rows.at(-1).seq;
  await store.forkThread(P, { atSeq: lastSeq, newThreadId: F });
  await store.appendTurn(F, turn('f1', 'fq', 'fa'));
  // Page of the shared part, asked of a store that never read F, then again of the same store.
  const args = { limit: 50, before: lastSeq + 1 };
  const a = await fresh.getChunks(F, args); // no hint yet: main path
  const b = await fresh.getChunks(F, args); // hint cached by the first read: sharedPage path
  const c = b.hasMore ? await fresh.getChunks(F, { limit: 50, before: b.oldestSeq }) : undefined;
  console.log(dialect, {
    sentinelSeq: first,
    firstRead: { n: a.chunks.length, oldestSeq: a.oldestSeq, hasMore: a.hasMore },
    secondRead: { n: b.chunks.length, oldestSeq: b.oldestSeq, hasMore: b.hasMore },
    nextPageAfterHasMore: c && { n: c.chunks.length, hasMore: c.hasMore },
    identical: JSON.stringify(a) === JSON.stringify(b),
  });
  await close();
}
