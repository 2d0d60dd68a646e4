// Deleting a version (alternative) is refused with `thread-has-forks` naming a later version that
// reads none of its rows: the later version (an edit of an earlier turn, made while the first
// version was active) records the active leaf as its parent although its path lies wholly in
// the conversation's own rows.
import { DIALECTS, openStores, turn } from './_probe_history_lib.mjs';

for (const dialect of DIALECTS) {
  const { stores: [store], close } = await openStores(dialect);
  const C = `conv-${Date.now()}`;
  await store.appendTurn(C, turn('t1', 'q1', 'a1'));
  await store.appendTurn(C, turn('t2', 'q2', 'a2'));
  await store.appendTurn(C, turn('t3', 'q3', 'a3'));
  const v1 = await store.addAlternative(C, { turnId: 't3', newThreadId: `${C}-v1` }); // regenerate t3
  await store.appendTurn(v1.id, turn('t3b', 'q3', 'a3 again'));
  const v2 = await store.addAlternative(C, { turnId: 't2', newThreadId: `${C}-v2` }); // edit t2
  await store.appendTurn(v2.id, turn('t2b', 'q2 edited', 'a2b'));
  const t2 = await store.getThread(v2.id);
  const path = (await store.getRows(v2.id)).map((r) => `${r.seq}:${r.turnId}`).join(' ');
  let outcome;
  try {
    outcome = await store.deleteThread(v1.id);
  } catch (e) {
    outcome = { code: e.code, message: e.message, value: e.value };
  }
  console.log(dialect, { v2ForkOf: t2.forkOf, v2Path: path, deleteV1: outcome });
  await close();
}
