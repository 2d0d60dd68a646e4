// Random edit/regenerate/fork/truncate/snapshot scenario, the same seed on SQLite, PostgreSQL and
// MariaDB. After every operation, for every thread: getHistory with states (snapshotMinRows 1)
// == getHistory without states == groupRowsToMessages(getRows) == backward pages == forward
// pages; and the whole trace must be identical across dialects.
import { groupRowsToMessages } from '../dist/index.js';
import { DIALECTS, openStores } from './_probe_history_lib.mjs';

const SEED = Number(process.argv[2] ?? 7);
const STEPS = Number(process.argv[3] ?? 60);
function prng(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}
const noTime = (v) => JSON.parse(JSON.stringify(v, (k, x) => (k === 'createdAt' ? undefined : x)));

function turnDrafts(id, r) {
  const kind = Math.floor(r() * 4);
  const u = { turnId: id, step: 0, role: 'user', type: 'text', data: { text: `q ${id}` } };
  if (kind === 0) return [u, { turnId: id, step: 0, role: 'assistant', type: 'text', data: { text: `a ${id}` } }];
  if (kind === 1)
    return [
      u,
      { turnId: id, step: 0, role: 'assistant', type: 'tool_call', data: { id: `c-${id}`, name: 'f', index: 0, input: { x: 1 } } },
      { turnId: id, step: 0, role: 'assistant', type: 'tool_call', data: { id: `d-${id}`, name: 'g', index: 1, input: { y: 2 } } },
      { turnId: id, step: 0, role: 'tool', type: 'tool_result', data: { callId: `c-${id}`, name: 'f', result: 'r1' } },
      { turnId: id, step: 0, role: 'tool', type: 'tool_result', data: { callId: `d-${id}`, name: 'g', result: { ok: true } } },
      { turnId: id, step: 1, role: 'assistant', type: 'text', data: { text: `done ${id}` } },
    ];
  if (kind === 2) return [{ turnId: id, step: 0, role: 'system', type: 'system', data: { kind: 'notice', text: `sys ${id}` } }];
  return [u, { turnId: id, step: 0, role: 'assistant', type: 'thinking', data: { text: 'hmm', providerMetadata: { anthropic: { signature: `sig-${id}` } } } }, { turnId: id, step: 0, role: 'assistant', type: 'text', data: { text: `a ${id}` } }];
}

async function pagesBack(store, id, limit) {
  const out = [];
  let before;
  for (let i = 0; i < 10000; i++) {
    const p = await store.getChunks(id, before === undefined ? { limit } : { limit, before });
    out.unshift(...p.chunks);
    if (!p.hasMore || p.oldestSeq === null) break;
    before = p.oldestSeq;
  }
  return out;
}
async function pagesFwd(store, id, limit) {
  const out = [];
  let afterSeq = 0;
  for (let i = 0; i < 10000; i++) {
    const p = await store.getChunksAfter(id, { limit, afterSeq });
    out.push(...p.chunks);
    if (!p.hasMore || p.newestSeq === null) break;
    afterSeq = p.newestSeq;
  }
  return out;
}

async function run(dialect) {
  const { stores: [st, plain], close } = await openStores(dialect, [{ snapshotMinRows: 1 }, { snapshotMinRows: false }]);
  const r = prng(SEED);
  const base = `c${SEED}`;
  const convs = [base];
  const threads = new Set([base]);
  const trace = [];
  const problems = [];
  let n = 0;
  for (let i = 0; i < 3; i++) await st.appendTurn(base, turnDrafts(`t${n++}`, r));
  for (let step = 0; step < STEPS; step++) {
    const op = Math.floor(r() * 7);
    const conv = convs[Math.floor(r() * convs.length)];
    let what;
    try {
      if (op <= 1) {
        const leaf = await st.activePath(conv);
        await st.appendTurn(leaf, turnDrafts(`t${n++}`, r));
        what = `append ${leaf}`;
      } else if (op === 2) {
        const leaf = await st.activePath(conv);
        const rows = await st.getRows(leaf);
        const turns = [...new Set(rows.map((x) => x.turnId))];
        if (turns.length === 0) continue;
        const t = turns[Math.floor(r() * turns.length)];
        const v = await st.addAlternative(conv, { turnId: t, newThreadId: `${conv}-v${step}` });
        threads.add(v.id);
        await st.appendTurn(v.id, turnDrafts(`t${n++}`, r));
        what = `alt ${conv} ${t} -> ${v.id}`;
      } else if (op === 3) {
        const alts = await st.getAlternatives(conv);
        const b = alts.branches[Math.floor(r() * Math.max(1, alts.branches.length))];
        if (!b) continue;
        const a = b.alternatives[Math.floor(r() * b.alternatives.length)];
        await st.switchAlternative(conv, a.threadId);
        what = `switch ${conv} -> ${a.threadId}`;
      } else if (op === 4) {
        const src = [...threads][Math.floor(r() * threads.size)];
        const rows = await st.getRows(src);
        const bounds = [0];
        for (let k = 0; k < rows.length; k++) if (k === rows.length - 1 || rows[k + 1].turnId !== rows[k].turnId) bounds.push(rows[k].seq);
        const at = bounds[Math.floor(r() * bounds.length)];
        const f = await st.forkThread(src, { atSeq: at, newThreadId: `${src}-f${step}` });
        threads.add(f.id);
        convs.push(f.id);
        what = `fork ${src}@${at} -> ${f.id}`;
      } else if (op === 5) {
        const t = [...threads][Math.floor(r() * threads.size)];
        const rows = await st.getRows(t);
        const bounds = [];
        for (let k = 0; k < rows.length; k++) if (k === rows.length - 1 || rows[k + 1].turnId !== rows[k].turnId) bounds.push(rows[k].seq);
        if (bounds.length < 2) continue;
        const at = bounds[Math.floor(r() * (bounds.length - 1))];
        try {
          await st.truncateAfter(t, at);
          what = `truncate ${t}@${at}`;
        } catch (e) {
          what = `truncate ${t}@${at} refused ${e.code}`;
        }
      } else {
        const t = [...threads][Math.floor(r() * threads.size)];
        const s = await st.writeHistorySnapshot(t);
        what = `snapshot ${t} -> ${s}`;
      }
    } catch (e) {
      what = `op ${op} failed ${e.code}: ${e.message}`;
    }
    trace.push(what);
    for (const t of threads) {
      const rows = await st.getRows(t);
      const ref = noTime(groupRowsToMessages(rows));
      const h1 = noTime((await st.getHistory(t)).messages);
      const h2 = noTime((await plain.getHistory(t)).messages);
      const m1 = noTime(await st.getMessages(t));
      const m2 = noTime(await plain.getMessages(t));
      const seqs = rows.map((x) => x.seq);
      const dense = seqs.every((s, k) => s === k + 1);
      if (!dense) problems.push(`${what}: ${t} seqs not dense ${seqs}`);
      if (JSON.stringify(h1) !== JSON.stringify(ref)) problems.push(`${what}: ${t} getHistory(states) != grouping of getRows`);
      if (JSON.stringify(h2) !== JSON.stringify(ref)) problems.push(`${what}: ${t} getHistory(no states) != grouping of getRows`);
      if (JSON.stringify(m1) !== JSON.stringify(m2)) problems.push(`${what}: ${t} getMessages differs with/without states`);
      for (const limit of [1, 2, 3, 5]) {
        const b = await pagesBack(st, t, limit);
        const f = await pagesFwd(plain, t, limit);
        if (JSON.stringify(b) !== JSON.stringify(rows)) problems.push(`${what}: ${t} backward pages (limit ${limit}) != getRows`);
        if (JSON.stringify(f) !== JSON.stringify(rows)) problems.push(`${what}: ${t} forward pages (limit ${limit}) != getRows`);
      }
      trace.push(`  ${t}: ${JSON.stringify(noTime(rows).map((x) => [x.seq, x.turnId, x.type]))}`);
    }
    for (const c of convs) {
      try {
        trace.push(`  alts ${c}: ${JSON.stringify(noTime(await st.getAlternatives(c)))}`);
      } catch (e) {
        trace.push(`  alts ${c}: ${e.code}`);
      }
    }
  }
  await close();
  return { trace, problems };
}

const results = {};
for (const d of DIALECTS) results[d] = await run(d);
for (const d of DIALECTS) {
  console.log(d, 'problems:', results[d].problems.length);
  for (const p of [...new Set(results[d].problems)].slice(0, 8)) console.log('  ', p);
}
const same = DIALECTS.every((d) => JSON.stringify(results[d].trace) === JSON.stringify(results.sqlite.trace));
console.log('traces identical across dialects:', same);
if (!same) {
  for (const d of DIALECTS.slice(1)) {
    const a = results.sqlite.trace, b = results[d].trace;
    const k = a.findIndex((x, i) => x !== b[i]);
    if (k >= 0) console.log(d, 'first diff at', k, '\n sqlite:', a[k], '\n', d + ':', b[k]);
  }
}
