// Memory and per-event cost of a giant live turn: 200,000 chunks with a limit of 300. The log and
// the reducer state stay bounded, the heap stays flat and the cost per event stays flat.
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

import type { ChunkEvent } from '../../src/schema/index.js';
import { ChunkWindow } from '../../src/window/index.js';

const CHUNKS = 200_000;
const LIMIT = 300;
const BATCH = 2_000;

function exposeGc(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

function heapAfterGc(gc: () => void): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Chunk `i`: a bare delta of alternating kinds, so each event starts a chunk and one stays open. */
function eventOf(i: number): ChunkEvent {
  const text = `chunk ${i} `.padEnd(40, '.');
  return i % 2 === 0 ? { type: 'reasoning-delta', text } : { type: 'text-delta', text };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] as number;
}

describe('a 200,000-chunk live turn with limit 300', () => {
  it('keeps the log and the reducer state bounded, the heap flat and the cost per event flat', () => {
    const gc = exposeGc();
    const window = new ChunkWindow({
      limit: LIMIT,
      loadPage: () => ({ chunks: [], total: 0, oldestSeq: null, hasMore: false }),
    });
    window.apply({ type: 'turn-start', turnId: 'giant' });
    const batchTimes: number[] = [];
    const heap: Array<[number, number]> = [];
    let maxChunks = 0;
    for (let start = 0; start < CHUNKS; start += BATCH) {
      const t0 = performance.now();
      for (let i = start; i < start + BATCH; i++) {
        window.apply(eventOf(i));
        const state = window.getSnapshot().liveTurn;
        maxChunks = Math.max(maxChunks, state?.chunkCount ?? 0);
      }
      batchTimes.push(performance.now() - t0);
      // Render the window now and then, as a UI would.
      const snapshot = window.getSnapshot();
      expect(snapshot.log.length).toBeLessThanOrEqual(LIMIT);
      expect(snapshot.groups).toHaveLength(1);
      if (start === 20 * BATCH || start === 60 * BATCH || start === CHUNKS - BATCH) {
        heap.push([start, heapAfterGc(gc)]);
      }
    }
    const final = window.getSnapshot();
    expect(final.liveTurn?.chunkCount).toBe(LIMIT);
    expect(final.liveTurn?.evicted).toBe(CHUNKS - LIMIT);
    expect(final.liveTurn?.openIndex).toBe(LIMIT - 1);
    expect(final.log).toHaveLength(LIMIT);
    expect(final.log.at(-1)?.id).toBe(`giant:${CHUNKS - 1}`);
    expect(final.log[0]?.id).toBe(`giant:${CHUNKS - LIMIT}`);
    // The reducer never holds more than the limit and the open chunk.
    expect(maxChunks).toBeLessThanOrEqual(LIMIT + 1);

    const [[, early], [, middle], [, late]] = heap as Array<[number, number]> as [
      [number, number],
      [number, number],
      [number, number],
    ];
    const growthMb = (late - early) / 1024 / 1024;
    // A leak grows the heap in both halves (80,000 chunks each): even 40 bytes per chunk would
    // show as more than 3 MB in each. The engine's own heap at times steps up once by 3 to 4 MB
    // (seen in one half, at random), which is no leak: the smaller half's growth is the measure.
    const halvesMb = [(middle - early) / 1048576, (late - middle) / 1048576];
    expect(Math.min(...halvesMb)).toBeLessThan(2);

    const earlyCost = median(batchTimes.slice(5, 25));
    const lateCost = median(batchTimes.slice(-20));
    // Loose on purpose (shared machines): a cost growing with the turn would be ~10× here.
    expect(lateCost / earlyCost).toBeLessThan(3);
    process.stdout.write(
      `[memory] ${CHUNKS} chunks, limit ${LIMIT}: heap ${(early / 1048576).toFixed(1)} MB at 40k chunks, ` +
        `${(late / 1048576).toFixed(1)} MB at the end (${growthMb >= 0 ? '+' : ''}${growthMb.toFixed(2)} MB; ` +
        `halves ${halvesMb.map((mb) => mb.toFixed(2)).join(' and ')} MB); ` +
        `per event ${((earlyCost / BATCH) * 1000).toFixed(2)} µs early, ${((lateCost / BATCH) * 1000).toFixed(2)} µs late\n`,
    );
  }, 120_000);
});
