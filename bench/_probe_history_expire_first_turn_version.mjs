// A conversation whose first turn was edited (a version at seq 0, which docs/store.md says lets
// the conversation's old turns expire "around it"): after expiry, getAlternatives lists the
// original of turn 1 with no turnId, and switching back to it shows the sentinel, not turn 1.
import { DIALECTS, openStores, turn } from './_probe_history_lib.mjs';

for (const dialect of DIALECTS) {
  const { stores: [store], close } = await openStores(dialect);
  const C = `c-${Date.now()}`;
  const old = new Date(Date.now() - 10 * 86_400_000);
  await store.appendTurn(C, turn('t1', 'q1', 'a1'), { createdAt: old });
  await store.appendTurn(C, turn('t2', 'q2', 'a2'), { createdAt: old });
  await store.appendTurn(C, turn('t3', 'q3', 'a3'));
  const v = await store.addAlternative(C, { turnId: 't1', newThreadId: `${C}-v` });
  await store.appendTurn(v.id, turn('t1b', 'q1 edited', 'a1b'));
  const before = JSON.stringify((await store.getAlternatives(C)).branches.map((b) => b.alternatives.map((a) => a.turnId)));
  const res = await store.expire({ before: new Date(Date.now() - 86_400_000) });
  const after = await store.getAlternatives(C);
  console.log(dialect, { expireLeftWhole: res.leftWhole.filter((t) => t.startsWith(C)), branchesBefore: before, branchesAfter: JSON.stringify(after.branches.map((b) => ({ atSeq: b.atSeq, turnIds: b.alternatives.map((a) => a.turnId ?? null) }))) });
  await close();
}
