// A writer process for the concurrency and crash tests: opens the store described on its command
// line and appends turns to one thread, telling its parent (over IPC) when each begins and ends.
//   argv[2]: JSON { spec: HarnessSpec, threadId, writer, turns, rowsPerTurn? }
import type { ChunkRowDraft } from '../../../src/schema/chunk-row.js';
import { type HarnessSpec, openStoreFromSpec } from './dialects.js';

interface Job {
  readonly spec: HarnessSpec;
  readonly threadId: string;
  readonly writer: number;
  readonly turns: number;
  /** Rows per turn; default a size derived from the turn id (see {@link turnSize}). */
  readonly rowsPerTurn?: number;
}

/** The size of turn `i` of writer `w`, so that the parent can check every turn is whole. */
export function turnSize(writer: number, i: number): number {
  return 1 + ((writer * 13 + i * 7) % 17);
}

export function turnDrafts(turnId: string, n: number): ChunkRowDraft[] {
  return Array.from({ length: n }, (_, k) => ({
    turnId,
    step: Math.floor(k / 4),
    role: k === 0 ? 'user' : 'assistant',
    type: 'text',
    data: { text: `${turnId} row ${k} of ${n}` },
  }));
}

const send = (message: unknown) =>
  new Promise<void>((resolve) => {
    if (process.send) process.send(message, () => resolve());
    else resolve();
  });

if (process.argv[2] !== undefined && process.send !== undefined) {
  const job = JSON.parse(process.argv[2]) as Job;
  const store = openStoreFromSpec(job.spec);
  try {
    await send({ type: 'ready' });
    for (let i = 0; i < job.turns; i++) {
      const turnId = `w${job.writer}-t${i}`;
      const size = job.rowsPerTurn ?? turnSize(job.writer, i);
      await send({ type: 'begin', turnId, size });
      const rows = await store.appendTurn(job.threadId, turnDrafts(turnId, size));
      await send({ type: 'appended', turnId, size: rows.length, first: rows[0]?.seq });
    }
    await send({ type: 'done' });
  } catch (error) {
    await send({ type: 'error', message: error instanceof Error ? error.stack : String(error) });
    process.exitCode = 1;
  } finally {
    await store.close();
  }
  process.disconnect?.();
}
