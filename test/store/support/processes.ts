// Starts append-worker.ts in child processes (Node + tsx) and collects what they report.
import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import type { HarnessSpec } from './dialects.js';

export interface WorkerMessage {
  readonly type: 'ready' | 'begin' | 'appended' | 'done' | 'error';
  readonly turnId?: string;
  readonly size?: number;
  readonly first?: number;
  readonly message?: string;
}

export interface WorkerHandle {
  readonly child: ChildProcess;
  readonly messages: WorkerMessage[];
  /** Resolves with the exit code (or signal) when the process ends. */
  readonly exited: Promise<number | NodeJS.Signals | null>;
  /** Resolves when a message matching `test` arrives. */
  waitFor(test: (m: WorkerMessage) => boolean): Promise<WorkerMessage>;
}

export function startWorker(job: {
  spec: HarnessSpec;
  threadId: string;
  writer: number;
  turns: number;
  rowsPerTurn?: number;
}): WorkerHandle {
  const child = fork(join(import.meta.dirname, 'append-worker.ts'), [JSON.stringify(job)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const messages: WorkerMessage[] = [];
  const waiters: Array<{
    test: (m: WorkerMessage) => boolean;
    resolve: (m: WorkerMessage) => void;
  }> = [];
  child.on('message', (m: WorkerMessage) => {
    messages.push(m);
    for (const w of [...waiters]) {
      if (w.test(m)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  return {
    child,
    messages,
    exited,
    waitFor(test) {
      const found = messages.find(test);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        waiters.push({ test, resolve });
        exited.then(() => reject(new Error('the worker exited before the awaited message')));
      });
    },
  };
}
