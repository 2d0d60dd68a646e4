// Which real services the tests can reach. Without a server, `npm test` skips that suite and
// says so on stderr; with CHUNKLOG_REQUIRE_SERVICES=1 (set by .ci/run) a missing service fails.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Socket } from 'node:net';

/** PostgreSQL used by the store suite. */
export const POSTGRES_URL: string =
  process.env.CHUNKLOG_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** MariaDB/MySQL used by the store suite. */
export const MYSQL_URL: string =
  process.env.CHUNKLOG_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
/** Debian's Chromium, driven by playwright-core. */
export const CHROMIUM_PATH: string = process.env.CHUNKLOG_TEST_CHROMIUM ?? '/usr/bin/chromium';

const required = process.env.CHUNKLOG_REQUIRE_SERVICES === '1';

function canConnect(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1500, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(Number(port), hostname, () => done(true));
  });
}

function unavailable(name: string, how: string): false {
  const message = `${name} is not available (${how}): skipping its tests.`;
  if (required) throw new Error(`${message} CHUNKLOG_REQUIRE_SERVICES=1 makes this a failure.`);
  process.stderr.write(`\n[chunklog tests] ${message}\n`);
  return false;
}

/** Whether PostgreSQL answers at {@link POSTGRES_URL}. */
export async function postgresAvailable(): Promise<boolean> {
  return (await canConnect(POSTGRES_URL)) || unavailable('PostgreSQL', POSTGRES_URL);
}

/** Whether MariaDB/MySQL answers at {@link MYSQL_URL}. */
export async function mysqlAvailable(): Promise<boolean> {
  return (await canConnect(MYSQL_URL)) || unavailable('MariaDB/MySQL', MYSQL_URL);
}

/** Whether Chromium is installed at {@link CHROMIUM_PATH}. */
export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM_PATH) || unavailable('Chromium', CHROMIUM_PATH);
}

/** Whether the npm registry answers (`npm ping`), for the test that installs the packed tarball. */
export function npmRegistryAvailable(): boolean {
  try {
    execFileSync('npm', ['ping'], { stdio: 'ignore', timeout: 20_000 });
    return true;
  } catch {
    return unavailable('The npm registry', 'npm ping');
  }
}

/** Redis used by the relay suite (`chunklog/relay`). */
export const REDIS_URL: string = process.env.CHUNKLOG_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether Redis answers at {@link REDIS_URL}. */
export async function redisAvailable(): Promise<boolean> {
  return (await canConnect(REDIS_URL)) || unavailable('Redis', REDIS_URL);
}
