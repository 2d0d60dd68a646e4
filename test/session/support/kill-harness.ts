// Runs the kill-point worker (durable-worker.ts) and compares stored rows, for the kill-point tests.
import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import type { ChunkRow } from '../../../src/schema/chunk-row.js';
import type { DialectHarness } from '../../store/support/dialects.js';

export interface WorkerMessage {
  readonly type: 'point' | 'written' | 'done' | 'error';
  readonly point?: number;
  readonly name?: string;
  readonly rows?: number;
  readonly points?: number;
  readonly message?: string;
}

/**
 * Runs the worker until it stops at `killAt` (then SIGKILLs it), kills itself (`killInWrite`),
 * or ends.
 */
export async function runWorker(
  harness: DialectHarness,
  threadId: string,
  killAt: number,
  job: { readonly killInWrite?: number } = {},
): Promise<{ messages: WorkerMessage[]; exit: number | NodeJS.Signals | null }> {
  const spec = { name: harness.name, prefix: harness.prefix, file: harness.file };
  const child: ChildProcess = fork(
    join(import.meta.dirname, 'durable-worker.ts'),
    [JSON.stringify({ spec, threadId, killAt, ...job })],
    { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const messages: WorkerMessage[] = [];
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  child.on('message', (m: WorkerMessage) => {
    messages.push(m);
    if (m.type === 'point') child.kill('SIGKILL');
  });
  const exit = await exited;
  return { messages, exit };
}

/** A row without what differs between threads and runs (its seq is kept). */
export function content(row: ChunkRow): unknown {
  return {
    seq: row.seq,
    turnId: row.turnId,
    step: row.step,
    role: row.role,
    type: row.type,
    data: row.data,
  };
}

/** Runs `run` over `items`, `size` at a time. */
export async function inBatches<T>(
  items: readonly T[],
  size: number,
  run: (item: T) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(run));
}

/** The kill points to try: every one on SQLite, ten spread over the turn on the servers. */
export function killPoints(name: string, points: number): number[] {
  const all = Array.from({ length: points }, (_, k) => k);
  const spread = Array.from({ length: 10 }, (_, i) => Math.round((i * (points - 1)) / 9));
  return name === 'sqlite' ? all : spread;
}
