// The shared fixtures (../shared/fixtures beside the repository root: third-party data read where
// it lies, never copied into the repository). Without that folder the suites that read it skip
// and say so on stderr; with CHUNKLOG_REQUIRE_SERVICES=1 (set by .ci/run) its absence fails the
// run instead, as a missing database does (test/support/services.ts).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository root (this file is test/support/shared-fixtures.ts). */
const REPOSITORY_ROOT = resolve(import.meta.dirname, '..', '..');

/** `../shared/fixtures`, resolved against the repository root. */
export const SHARED_FIXTURES_DIR: string = join(REPOSITORY_ROOT, '..', 'shared', 'fixtures');

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
