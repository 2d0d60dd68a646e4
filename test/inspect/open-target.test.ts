// openReadOnlyStore over each database of the matrix: it reads what a store wrote, and refuses to
// write (SQLite's read-only flag, read-only sessions on PostgreSQL and MySQL).
import { afterAll, describe, expect, it } from 'vitest';
import { ChunklogError } from '../../src/errors/index.js';
import { openReadOnlyStore } from '../../src/inspect/open-target.js';
import { explodeTurn } from '../../src/transforms/index.js';
import {
  availableDialects,
  createHarness,
  type DialectHarness,
} from '../store/support/dialects.js';
import { MYSQL_URL, POSTGRES_URL } from '../support/services.js';

const dialects = await availableDialects();
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const harness of harnesses) await harness.dispose();
});

describe.each(dialects)('openReadOnlyStore on %s', (name) => {
  it('reads threads, pages and turns, and cannot write', async () => {
    const harness = createHarness(name);
    harnesses.push(harness);
    const writer = harness.openStore();
    await writer.migrate();
    await writer.appendTurn(
      'th',
      explodeTurn('t1', [{ type: 'text', step: 0, text: 'hi' }], { role: 'user' }),
    );
    await writer.close();
    const target =
      name === 'sqlite' ? (harness.file as string) : name === 'postgres' ? POSTGRES_URL : MYSQL_URL;
    const opened = await openReadOnlyStore(target, { tablePrefix: harness.prefix });
    try {
      const threads = await opened.store.listThreads({ limit: 10 });
      expect(threads.threads.map((t) => t.id)).toEqual(['th']);
      expect((await opened.store.getTurn('th', 't1'))?.map((r) => r.data)).toEqual([
        { text: 'hi' },
      ]);
      const write = await opened.store
        .appendTurn(
          'th',
          explodeTurn('t2', [{ type: 'text', step: 0, text: 'no' }], { role: 'user' }),
        )
        .catch((error: unknown) => error);
      expect(ChunklogError.hasCode(write, 'store-failed')).toBe(true);
      expect(String((write as ChunklogError).cause)).toMatch(/read.?only/i);
      expect((await opened.store.getThread('th')).total).toBe(1);
    } finally {
      await opened.close();
    }
  });
});

describe('openReadOnlyStore', () => {
  it('names a missing SQLite file plainly, as a failure to open it, and hides a URL password', async () => {
    const missing = await openReadOnlyStore('/nonexistent/dir/x.db').catch((e: unknown) => e);
    expect(ChunklogError.hasCode(missing, 'store-failed')).toBe(true);
    expect((missing as Error).message).toBe('cannot open /nonexistent/dir/x.db: no such file');
    if (dialects.includes('postgres')) {
      const url = new URL(POSTGRES_URL);
      url.password = 'secret';
      const opened = await openReadOnlyStore(url.toString());
      expect(opened.source).not.toContain('secret');
      await opened.close();
    }
  });
});
