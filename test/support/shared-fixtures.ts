// The shared fixtures (../shared/fixtures beside the repository root: third-party data read where
// it lies, never copied into the repository). Without that folder the suites that read it skip
// and say so on stderr; with CHUNKLOG_REQUIRE_SERVICES=1 (set by .ci/run) its absence fails the
// run instead, as a missing database does (test/support/services.ts).
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** This workspace's shared folder, for a clone made outside the workspace. */
const WORKSPACE_FIXTURES = '/work/shared/fixtures';

/** The repository root (this file is test/support/shared-fixtures.ts). */
const REPOSITORY_ROOT = resolve(import.meta.dirname, '..', '..');

/**
 * The shared fixtures folder: `CHUNKLOG_SHARED_FIXTURES` when set, else `../shared/fixtures`
 * beside the repository root, else the first `shared/fixtures` beside one of the root's
 * ancestors (a clone made in a subfolder of the workspace), else this workspace's
 * `/work/shared/fixtures` (a clone made elsewhere, such as a temporary folder). When none exists,
 * the `../shared` path (named in the skip message).
 */
export const SHARED_FIXTURES_DIR: string = findSharedFixtures();

function findSharedFixtures(): string {
  const fromEnv = process.env.CHUNKLOG_SHARED_FIXTURES;
  if (fromEnv !== undefined && fromEnv !== '') return resolve(fromEnv);
  const beside = join(REPOSITORY_ROOT, '..', 'shared', 'fixtures');
  for (let dir = resolve(REPOSITORY_ROOT, '..'); ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'fixtures');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) break;
  }
  return existsSync(WORKSPACE_FIXTURES) ? WORKSPACE_FIXTURES : beside;
}

/**
 * Whether the shared fixture folder `name` exists; when it does not, says so on stderr (or throws
 * under CHUNKLOG_REQUIRE_SERVICES=1).
 *
 * @param name - a folder of ../shared/fixtures, e.g. `ai-sdk-recorded`
 */
export function sharedFixturesAvailable(name: string): boolean {
  const dir = join(SHARED_FIXTURES_DIR, name);
  if (existsSync(dir)) return true;
  const message = `the shared fixtures ${dir} are not available (clone the repository next to ../shared): skipping their tests.`;
  if (process.env.CHUNKLOG_REQUIRE_SERVICES === '1') {
    throw new Error(`${message} CHUNKLOG_REQUIRE_SERVICES=1 makes this a failure.`);
  }
  process.stderr.write(`\n[chunklog tests] ${message}\n`);
  return false;
}
