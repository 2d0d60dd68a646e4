// Several OS processes append to one thread at once; a writer killed with SIGKILL in the middle
// of a turn leaves no partial turn. Over an SQLite file, PostgreSQL and MariaDB.
import { afterAll, describe, expect, it } from 'vitest';
import type { ChunkRow } from '../../src/schema/chunk-row.js';
import type { ChunkStore } from '../../src/store/index.js';
import { turnSize } from './support/append-worker.js';
import { availableDialects, createHarness, type DialectHarness } from './support/dialects.js';
import { startWorker } from './support/processes.js';

const available = await availableDialects();
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

/** Every turn appears once, as one run of consecutive rows of its full size; seqs are 1..n. */
function checkLog(
  rows: readonly ChunkRow[],
  expectedSize: (turnId: string) => number,
): Set<string> {
  expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
  const turns = new Set<string>();
  let i = 0;
  while (i < rows.length) {
    const turnId = (rows[i] as ChunkRow).turnId;
    expect(turns.has(turnId), `turn ${turnId} appears twice`).toBe(false);
    turns.add(turnId);
    let n = 0;
    while (i < rows.length && (rows[i] as ChunkRow).turnId === turnId) {
      expect((rows[i] as ChunkRow).data).toEqual({
        text: `${turnId} row ${n} of ${expectedSize(turnId)}`,
      });
      n++;
      i++;
    }
    expect(n, `turn ${turnId} is not whole`).toBe(expectedSize(turnId));
  }
  return turns;
}

const sizeOf = (turnId: string) => {
  const [, w, t] = /^w(\d+)-t(\d+)$/.exec(turnId) ?? [];
  return turnSize(Number(w), Number(t));
};

for (const name of ['sqlite', 'postgres', 'mysql'] as const) {
  describe.skipIf(!available.includes(name))(`${name}: several processes`, () => {
    let harness: DialectHarness;
    let store: ChunkStore;
    const setup = async () => {
      if (harness === undefined) {
        harness = createHarness(name);
        harnesses.push(harness);
        store = harness.openStore();
        await store.migrate();
      }
    };
    afterAll(async () => {
      await store?.close();
    });

    it('append to one thread at once: every turn stored exactly once and whole, seqs dense', async () => {
      await setup();
      const threadId = `procs-${name}`;
      const writers = 4;
      const turns = 15;
      const workers = Array.from({ length: writers }, (_, writer) =>
        startWorker({ spec: specOf(harness), threadId, writer, turns }),
      );
      const codes = await Promise.all(workers.map((w) => w.exited));
      for (const w of workers) {
        const error = w.messages.find((m) => m.type === 'error');
        expect(error?.message).toBeUndefined();
      }
      expect(codes).toEqual(workers.map(() => 0));
      const rows = await store.getRows(threadId);
      const stored = checkLog(rows, sizeOf);
      expect(stored.size).toBe(writers * turns);
      // Each writer saw its turns land at the seqs that are now stored.
      for (const w of workers) {
        for (const m of w.messages.filter((x) => x.type === 'appended')) {
          expect(rows[(m.first as number) - 1]?.turnId).toBe(m.turnId);
        }
      }
    }, 120_000);

    it('a writer killed with SIGKILL mid-turn leaves no partial turn and earlier turns intact', async () => {
      await setup();
      const threadId = `crash-${name}`;
      const bigTurn = name === 'sqlite' ? 20_000 : 6_000;
      const committed = new Set<string>();
      let killedMidTurn = 0;
      for (let round = 0; round < 3; round++) {
        // A steady writer keeps appending small turns while the victim dies mid-way.
        const steady = startWorker({
          spec: specOf(harness),
          threadId,
          writer: 100 + round,
          turns: 6,
        });
        const victim = startWorker({
          spec: specOf(harness),
          threadId,
          writer: round,
          turns: 1_000,
          rowsPerTurn: bigTurn,
        });
        await victim.waitFor((m) => m.type === 'appended');
        // Kill it while it writes its second turn.
        const begun = await victim.waitFor(
          (m) => m.type === 'begin' && m.turnId !== `w${round}-t0`,
        );
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 30));
        victim.child.kill('SIGKILL');
        expect(await victim.exited).toBe('SIGKILL');
        expect(await steady.exited).toBe(0);
        for (const w of [steady, victim]) {
          for (const m of w.messages) if (m.type === 'appended') committed.add(m.turnId as string);
        }
        const rows = await store.getRows(threadId);
        const stored = checkLog(rows, (turnId) => {
          if (turnId.startsWith('after-')) return 1;
          const writer = Number(/^w(\d+)-/.exec(turnId)?.[1]);
          return writer >= 100 ? sizeOf(turnId) : bigTurn;
        });
        for (const turnId of committed) expect(stored.has(turnId), `${turnId} lost`).toBe(true);
        if (!stored.has(begun.turnId as string)) killedMidTurn++;
        // The thread still takes turns, right after the last stored seq.
        const next = await store.appendTurn(threadId, [
          {
            turnId: `after-${round}`,
            step: 0,
            role: 'user',
            type: 'text',
            data: { text: `after-${round} row 0 of 1` },
          },
        ]);
        expect(next[0]?.seq).toBe(rows.length + 1);
        committed.add(`after-${round}`);
      }
      // The kill landed inside a transaction at least once (its turn is absent, not partial).
      expect(killedMidTurn).toBeGreaterThan(0);
    }, 180_000);
  });
}

function specOf(h: DialectHarness) {
  return { name: h.name, prefix: h.prefix, file: h.file };
}
