// A relay reader costs the same memory however long it follows (issue 35: each read wake-up kept
// about 1 KB). On the in-process, Redis and PostgreSQL relays, a process publishes a 50,000-event
// turn with one reader following it, waking up once per event (per 5 events on PostgreSQL), and
// once with none; the heap after forced collections at 10% of the events and at the end
// (support/reader-heap.ts) must grow by at most 1 MB more with the reader than without: a reader
// that kept 21 bytes per wake-up (105 on PostgreSQL) would grow by more.
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { postgresAvailable, redisAvailable } from '../support/services.js';

const here = dirname(fileURLToPath(import.meta.url));
const EVENTS = 50_000;
const LIMIT_BYTES = 1024 * 1024;

const relays = [
  { name: 'in-process', arg: 'in-process', up: true },
  { name: 'Redis', arg: 'redis', up: await redisAvailable() },
  { name: 'PostgreSQL', arg: 'postgres', up: await postgresAvailable() },
];

interface HeapRun {
  /** Heap used (bytes) at 10% of the events and at the end, after forced collections. */
  readonly early: number;
  readonly late: number;
  /** The fewest events a reader read, in order (0 without readers). */
  readonly read: number;
  readonly gaps: number;
}

/** Runs support/reader-heap.ts in a process of its own: `readers` readers over EVENTS events. */
async function heapRun(relay: string, readers: number): Promise<HeapRun> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      'tsx',
      join(here, 'support', 'reader-heap.ts'),
      relay,
      String(readers),
      String(EVENTS),
    ],
    { env: process.env, maxBuffer: 1024 * 1024 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as HeapRun;
}

describe.each(relays)('a reader of the $name relay', (relay) => {
  it.skipIf(!relay.up)(
    `reads ${EVENTS.toLocaleString('en')} events with a heap at most 1 MB above a run without readers`,
    async () => {
      // Side by side: each process measures its own heap.
      const [none, one] = await Promise.all([heapRun(relay.arg, 0), heapRun(relay.arg, 1)]);
      expect(one.read).toBe(EVENTS);
      expect(one.gaps).toBe(0);
      const extra = one.late - one.early - (none.late - none.early);
      expect(extra).toBeLessThanOrEqual(LIMIT_BYTES);
    },
    // Not a limit on the time: room for a busy machine.
    240_000,
  );
});
