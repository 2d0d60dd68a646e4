// Export -> import of a thread that retention expired: the rows do not keep their seqs, the
// imported sentinel's `firstKeptSeq` points at a seq that is not the first kept turn's, and the
// import's `sameSeqs` is false "into a new thread". A later expire on the copy then counts the
// old sentinel as one ordinary turn instead of adding its leftOutTurns.
import { exportThread, importThread } from '../dist/transfer/index.js';
import { DIALECTS, openStores, turn } from './_probe_history_lib.mjs';

for (const dialect of DIALECTS) {
  const { stores: [store], close } = await openStores(dialect);
  const T = `exp-${Date.now()}`;
  const old = new Date(Date.now() - 10 * 86_400_000);
  for (let i = 1; i <= 5; i++) await store.appendTurn(T, turn(`old${i}`, `q${i}`, `a${i}`), { createdAt: old });
  for (let i = 1; i <= 2; i++) await store.appendTurn(T, turn(`mid${i}`, `q${i}`, `a${i}`), { createdAt: new Date(Date.now() - 5 * 86_400_000) });
  await store.appendTurn(T, turn('new1', 'q', 'a'));
  await store.expire({ before: new Date(Date.now() - 7 * 86_400_000), threadId: T });
  const src = await store.getRows(T);
  let text = '';
  for await (const line of exportThread(store, T)) text += line;
  const res = await importThread(store, text, { threadId: `${T}-copy` });
  const dst = await store.getRows(`${T}-copy`);
  const sentinel = (rows) => rows.find((r) => r.type === 'system').data.truncation;
  const firstKept = (rows) => rows.find((r) => r.turnId === sentinel(rows).firstKeptTurnId).seq;
  console.log(dialect, {
    importResult: res,
    sourceSeqs: src.map((r) => r.seq).join(','),
    copySeqs: dst.map((r) => r.seq).join(','),
    copySentinel: { turnId: dst[0].turnId, firstKeptSeq: sentinel(dst).firstKeptSeq, actualFirstKeptSeq: firstKept(dst) },
  });
  // A later expiry on both: the source adds the earlier sentinel's count, the copy does not.
  const before = new Date(Date.now() - 2 * 86_400_000);
  const e1 = await store.expire({ before, threadId: T });
  const e2 = await store.expire({ before, threadId: `${T}-copy` });
  const oldLeft = (await store.getRows(`${T}-copy`)).filter((r) => Date.parse(r.createdAt) < before.getTime()).map((r) => `${r.seq}:${r.turnId}`);
  console.log(dialect, 'second expire: source', e1, '| copy', e2, '| copy rows still older than `before`:', oldLeft.join(' '));
  const s2 = sentinel(await store.getRows(T));
  const c2 = sentinel(await store.getRows(`${T}-copy`));
  console.log(dialect, 'after a second expire: source leftOutTurns', s2.leftOutTurns, '| copy leftOutTurns', c2.leftOutTurns);
  await close();
}
