// Three server instances (test/relay/support/relay-server.ts) on one relay and one store, behind
// a round-robin proxy.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createChunkStore } from '../../../src/store/index.js';
import { type RoundRobinProxy, startRoundRobinProxy } from './round-robin-proxy.js';

const here = dirname(fileURLToPath(import.meta.url));

/** The instances, their direct URLs and the proxy's. */
export interface Instances {
  /** `http://127.0.0.1:<port>` of each instance. */
  readonly direct: readonly string[];
  /** The proxy in front of them. */
  readonly url: string;
  /** The store file they share. */
  readonly db: string;
  stop(): Promise<void>;
}

function start(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'relay-server.ts')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (data: Buffer) => {
    err += data.toString();
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (data: Buffer) => {
      out += data.toString();
      const match = /PORT (\d+)/.exec(out);
      if (match) resolve({ child, port: Number(match[1]) });
    });
    child.once('exit', (code) => reject(new Error(`instance exited (${code}): ${err}`)));
  });
}

/** Starts three instances on the relay (`redis` or `postgres`, at `url`, keys under `prefix`). */
export async function startInstances(
  relay: 'redis' | 'postgres',
  url: string,
  prefix: string,
): Promise<Instances> {
  const dir = mkdtempSync(join(tmpdir(), 'chunklog-relay-'));
  const db = join(dir, 'store.db');
  const store = createChunkStore({ sqlite: db });
  await store.migrate();
  await store.close();
  const started = await Promise.all(
    ['a', 'b', 'c'].map((name) =>
      start({ RELAY: relay, RELAY_URL: url, PREFIX: prefix, DB: db, NAME: name }),
    ),
  );
  const proxy: RoundRobinProxy = await startRoundRobinProxy(started.map((s) => s.port));
  return {
    direct: started.map((s) => `http://127.0.0.1:${s.port}`),
    url: `http://127.0.0.1:${proxy.port}`,
    db,
    async stop() {
      await proxy.close();
      await Promise.all(
        started.map(
          ({ child }) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null) resolve();
              child.once('exit', () => resolve());
              child.kill('SIGTERM');
            }),
        ),
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
