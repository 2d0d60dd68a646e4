// Alternatives inside a conversation (issue 32): editing or regenerating a turn forks the active
// path at the boundary before it (by reference), records the fork as the conversation's and makes
// it active; nothing is deleted; versions are listed per branch point and switched. On every
// dialect available.
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChunkStore } from '../../src/store/index.js';
import { rejected } from '../support/chunklog-error.js';
import { availableDialects, createHarness, type DialectHarness } from './support/dialects.js';
import { openThreeTurnChat, qa } from './support/three-turn-chat.js';

const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

async function texts(store: ChunkStore, threadId: string): Promise<string[]> {
  const rows = await store.getRows(threadId);
  return rows.map((r) => `${r.turnId}:${(r.data as { text: string }).text}`);
}

const available = await availableDialects();

describe.each(['sqlite', 'postgres', 'mysql'] as const)('alternatives on %s', (name) => {
  const open = () => openThreeTurnChat(name, harnesses);

  it.skipIf(!available.includes(name))(
    'regenerating a turn keeps the old version; the active path follows the new one',
    async () => {
      const store = await open();
      expect(await store.activePath('chat')).toBe('chat');
      expect((await store.getAlternatives('chat')).branches).toEqual([]);
      const alt = await store.addAlternative('chat', { turnId: 't2', newThreadId: 'alt-1' });
      expect(alt).toMatchObject({ id: 'alt-1', alternativeOf: 'chat', total: 2 });
      expect(alt.forkOf).toEqual({ threadId: 'chat', atSeq: 2 });
      expect(await store.activePath('chat')).toBe('alt-1');
      // Made, not yet written: listed as the active version with no turn.
      const pending = await store.getAlternatives('chat');
      expect(pending.branches).toEqual([
        {
          atSeq: 2,
          active: 1,
          alternatives: [
            expect.objectContaining({ threadId: 'chat', turnId: 't2' }),
            expect.objectContaining({ threadId: 'alt-1', turnId: undefined }),
          ],
        },
      ]);
      await store.appendTurn('alt-1', qa('t2b', 'two', 'another answer'));
      expect(await texts(store, 'alt-1')).toEqual([
        't1:one',
        't1:answer to one',
        't2b:two',
        't2b:another answer',
      ]);
      // The original is whole.
      expect(await texts(store, 'chat')).toHaveLength(6);
      const listed = await store.getAlternatives('chat');
      expect(listed.activePath).toBe('alt-1');
      expect(listed.branches).toEqual([
        {
          atSeq: 2,
          active: 1,
          alternatives: [
            expect.objectContaining({ threadId: 'chat', turnId: 't2' }),
            expect.objectContaining({ threadId: 'alt-1', turnId: 't2b' }),
          ],
        },
      ]);
      // Switching back: the original path, its later turns included.
      const back = await store.switchAlternative('chat', 'chat');
      expect(back.activePath).toBe('chat');
      expect(back.branches[0]?.active).toBe(0);
      expect(await store.activePath('chat')).toBe('chat');
      expect((await store.getThread('chat')).activePath).toBeUndefined();
      await store.switchAlternative('chat', 'alt-1');
      expect((await store.getThread('chat')).activePath).toBe('alt-1');
    },
  );

  it.skipIf(!available.includes(name))(
    'alternatives of alternatives: each branch point lists its versions in the order they were made',
    async () => {
      const store = await open();
      // Three versions of t2, then an edit of t3 on the second one.
      await store.addAlternative('chat', { turnId: 't2', newThreadId: 'b' });
      await store.appendTurn('b', qa('t2b', 'two b'));
      await store.appendTurn('b', qa('t3b', 'three b'));
      await store.addAlternative('chat', { turnId: 't2b', newThreadId: 'c' });
      await store.appendTurn('c', qa('t2c', 'two c'));
      await store.switchAlternative('chat', 'b');
      await store.addAlternative('chat', { turnId: 't3b', newThreadId: 'd' });
      await store.appendTurn('d', qa('t3d', 'three d'));
      const listed = await store.getAlternatives('chat');
      expect(listed.activePath).toBe('d');
      expect(
        listed.branches.map((b) => ({
          atSeq: b.atSeq,
          active: b.active,
          versions: b.alternatives.map((a) => `${a.threadId}/${a.turnId}`),
        })),
      ).toEqual([
        { atSeq: 2, active: 1, versions: ['chat/t2', 'd/t2b', 'c/t2c'] },
        { atSeq: 4, active: 1, versions: ['b/t3b', 'd/t3d'] },
      ]);
      expect(await texts(store, 'd')).toEqual([
        't1:one',
        't1:answer to one',
        't2b:two b',
        't2b:answer to two b',
        't3d:three d',
        't3d:answer to three d',
      ]);
      // The first turn too: a branch at seq 0.
      await store.addAlternative('chat', { turnId: 't1', newThreadId: 'e' });
      await store.appendTurn('e', qa('t1e', 'one e'));
      const first = (await store.getAlternatives('chat')).branches;
      expect(first.map((b) => [b.atSeq, b.alternatives.length, b.active])).toEqual([[0, 2, 1]]);
      // Conversations are listed, not their alternatives.
      const page = await store.listThreads();
      expect(page.threads.map((t) => t.id)).toEqual(['chat']);
    },
  );

  it.skipIf(!available.includes(name))(
    'versions lists every version, the ones off the active path too; each switches',
    async () => {
      const store = await open();
      expect((await store.getAlternatives('chat')).versions).toEqual([
        {
          threadId: 'chat',
          createdAt: expect.any(String),
          forkOf: undefined,
          turnId: 't1',
          total: 6,
        },
      ]);
      // B edits t2 and goes on; C regenerates B's t3; back on the conversation's own path, which
      // branches at t2 (chat, B) and never reaches C's branch point.
      await store.addAlternative('chat', { turnId: 't2', newThreadId: 'B' });
      await store.appendTurn('B', qa('t2b', 'two b'));
      await store.appendTurn('B', qa('t3b', 'three b'));
      await store.addAlternative('chat', { turnId: 't3b', newThreadId: 'C' });
      await store.appendTurn('C', qa('t3c', 'three c'));
      await store.addAlternative('chat', { turnId: 't3c', newThreadId: 'D' });
      const listed = await store.switchAlternative('chat', 'chat');
      expect(listed.branches.flatMap((b) => b.alternatives.map((a) => a.threadId))).toEqual([
        'chat',
        'B',
      ]);
      expect(listed.versions).toEqual([
        expect.objectContaining({ threadId: 'chat', forkOf: undefined, turnId: 't1', total: 6 }),
        expect.objectContaining({
          threadId: 'B',
          forkOf: { threadId: 'chat', atSeq: 2 },
          turnId: 't2b',
          total: 6,
        }),
        expect.objectContaining({
          threadId: 'C',
          forkOf: { threadId: 'B', atSeq: 4 },
          turnId: 't3c',
          total: 6,
        }),
        // Made, nothing written yet.
        expect.objectContaining({
          threadId: 'D',
          forkOf: { threadId: 'B', atSeq: 4 },
          turnId: undefined,
          total: 4,
        }),
      ]);
      for (const v of listed.versions) {
        expect(v.createdAt).toBe((await store.getThread(v.threadId)).createdAt);
      }
      expect(await store.getAlternatives('chat')).toEqual(listed);
      // A version listed only in versions is switched to like any other.
      expect((await store.switchAlternative('chat', 'C')).activePath).toBe('C');
      expect(await texts(store, 'C')).toEqual([
        't1:one',
        't1:answer to one',
        't2b:two b',
        't2b:answer to two b',
        't3c:three c',
        't3c:answer to three c',
      ]);
    },
  );

  it.skipIf(!available.includes(name))(
    'versions lists a version whose branch point lies beyond the truncated active path',
    async () => {
      const store = await open();
      await store.addAlternative('chat', { turnId: 't3', newThreadId: 'v' });
      await store.appendTurn('v', qa('t3b', 'three b'));
      await store.switchAlternative('chat', 'chat');
      await store.truncateAfter('chat', 4);
      const listed = await store.getAlternatives('chat');
      expect(listed.branches).toEqual([]);
      expect(listed.versions.map((v) => [v.threadId, v.forkOf, v.turnId, v.total])).toEqual([
        ['chat', undefined, 't1', 4],
        ['v', { threadId: 'chat', atSeq: 4 }, 't3b', 6],
      ]);
    },
  );

  it.skipIf(!available.includes(name))(
    'bad input is refused with a typed error naming it, and changes nothing',
    async () => {
      const store = await open();
      const notOnPath = await rejected(store.addAlternative('chat', { turnId: 'nope' }));
      expect(notOnPath).toMatchObject({ code: 'invalid-option', option: 'turnId' });
      expect(notOnPath.message).toContain('"nope"');
      expect(await rejected(store.addAlternative('missing', { turnId: 't1' }))).toMatchObject({
        code: 'thread-not-found',
      });
      await store.addAlternative('chat', { turnId: 't3', newThreadId: 'alt' });
      const onAlternative = await rejected(store.getAlternatives('alt'));
      expect(onAlternative).toMatchObject({ code: 'invalid-option', option: 'conversationId' });
      expect(onAlternative.message).toContain('"chat"');
      expect(
        await rejected(store.addAlternative('chat', { turnId: 't1', newThreadId: 'alt' })),
      ).toMatchObject({ code: 'thread-exists' });
      await store.createThread('other');
      expect(await rejected(store.switchAlternative('chat', 'other'))).toMatchObject({
        code: 'invalid-option',
        option: 'threadId',
      });
      expect(await store.activePath('chat')).toBe('alt');
      expect(await rejected(store.addAlternative('chat', { turnId: '' }))).toMatchObject({
        code: 'invalid-option',
      });
      // An alternative's own id resolves to itself.
      expect(await store.activePath('alt')).toBe('alt');
    },
  );

  it.skipIf(!available.includes(name))(
    'deleting a conversation deletes its alternatives; deleting the active alternative makes the original active',
    async () => {
      const store = await open();
      await store.addAlternative('chat', { turnId: 't2', newThreadId: 'x' });
      await store.appendTurn('x', qa('t2x', 'two x'));
      await store.addAlternative('chat', { turnId: 't2x', newThreadId: 'y' });
      await store.appendTurn('y', qa('t2y', 'two y'));
      expect(await store.deleteThread('y')).toBe(true);
      expect(await store.activePath('chat')).toBe('chat');
      expect((await store.getAlternatives('chat')).branches[0]?.alternatives).toHaveLength(2);
      // A branch of the conversation made by forkThread is a conversation of its own, and keeps
      // the conversation from being deleted while it reads its rows.
      await store.forkThread('x', { atSeq: 2, newThreadId: 'branch' });
      expect(await rejected(store.deleteThread('chat'))).toMatchObject({
        code: 'thread-has-forks',
      });
      expect(await store.getThread('x')).toMatchObject({ alternativeOf: 'chat' });
      await store.deleteThread('branch');
      expect(await store.deleteThread('chat')).toBe(true);
      expect(await rejected(store.getThread('x'))).toMatchObject({ code: 'thread-not-found' });
      expect((await store.listThreads()).threads).toEqual([]);
    },
  );

  it.skipIf(!available.includes(name))(
    'a version made while another is active, before that one starts, is the fork of the thread it reads: the other can be deleted or erased',
    async () => {
      const store = await open();
      // Regenerate t3 (v1), then, while v1 is active, edit t2 (v2): v2 reads only chat's rows.
      await store.addAlternative('chat', { turnId: 't3', newThreadId: 'v1' });
      await store.appendTurn('v1', qa('t3b', 'three b'));
      const v2 = await store.addAlternative('chat', { turnId: 't2', newThreadId: 'v2' });
      await store.appendTurn('v2', qa('t2b', 'two b'));
      expect(await store.deleteThread('v1')).toBe(true);
      expect(v2.forkOf).toEqual({ threadId: 'chat', atSeq: 2 });
      expect(await texts(store, 'v2')).toEqual([
        't1:one',
        't1:answer to one',
        't2b:two b',
        't2b:answer to two b',
      ]);
      // The same made again, erased this time.
      await store.switchAlternative('chat', 'chat');
      await store.addAlternative('chat', { turnId: 't3', newThreadId: 'v3' });
      await store.appendTurn('v3', qa('t3c', 'three c'));
      await store.addAlternative('chat', { turnId: 't2', newThreadId: 'v4' });
      expect(await store.eraseThread('v3')).toBe(true);
      // The conversation still holds its rows for them: truncating below is refused, naming them.
      const held = await rejected(store.truncateAfter('chat', 1));
      expect(held).toMatchObject({ code: 'thread-has-forks' });
      expect((held.value as { threadId: string }[]).map((f) => f.threadId).sort()).toEqual([
        'v2',
        'v4',
      ]);
      // A fork of a version inside the conversation's part is the conversation's fork too.
      const branch = await store.forkThread('v2', { atSeq: 2, newThreadId: 'branch' });
      expect(branch.forkOf).toEqual({ threadId: 'chat', atSeq: 2 });
      expect((await store.listThreads({ forkOf: 'chat' })).threads.map((t) => t.id)).toEqual([
        'branch',
      ]);
      expect(await store.deleteThread('v2')).toBe(true);
      expect(await rejected(store.deleteThread('chat'))).toMatchObject({
        code: 'thread-has-forks',
        value: [{ threadId: 'branch', atSeq: 2 }],
      });
      expect(await store.getRows('branch')).toHaveLength(2);
    },
  );

  it.skipIf(!available.includes(name))(
    'erasing a conversation erases its alternatives',
    async () => {
      const store = await open();
      await store.addAlternative('chat', { turnId: 't3', newThreadId: 'x' });
      await store.appendTurn('x', qa('t3x', 'three x'));
      expect(await store.eraseThread('chat')).toBe(true);
      expect(await rejected(store.getThread('x'))).toMatchObject({ code: 'thread-not-found' });
    },
  );

  it.skipIf(!available.includes(name))(
    'a version whose first turn expire removed is still listed, with no turn, and switched to',
    async () => {
      const harness = createHarness(name);
      harnesses.push(harness);
      const store = harness.openStore();
      await store.migrate();
      await store.appendTurn('old', qa('t1', 'one'), { createdAt: new Date(1_000) });
      await store.appendTurn('old', qa('t2', 'two'), { createdAt: new Date(2_000) });
      // A version of the first turn reads none of the conversation's rows: they can expire.
      await store.addAlternative('old', { turnId: 't1', newThreadId: 'v' });
      await store.appendTurn('v', qa('t1b', 'one again'));
      await store.switchAlternative('old', 'old');
      expect(await store.expire({ before: new Date(3_000) })).toMatchObject({ turns: 2 });
      const { branches } = await store.getAlternatives('old');
      expect(branches).toEqual([
        {
          atSeq: 0,
          active: 0,
          alternatives: [
            { threadId: 'old', turnId: undefined, createdAt: expect.any(String) },
            { threadId: 'v', turnId: 't1b', createdAt: expect.any(String) },
          ],
        },
      ]);
      await store.switchAlternative('old', 'v');
      expect(await texts(store, 'v')).toEqual(['t1b:one again', 't1b:answer to one again']);
    },
  );
});

// A database's collation orders ids its own way (PostgreSQL's en-US puts `b` before `B`; the C
// collation, SQLite and MySQL's binary ids order by code). Versions made in the same millisecond
// are ordered by id: the store orders them itself, so every database lists them alike.
describe.skipIf(!available.includes('postgres'))('alternatives on a collation of its own', () => {
  it('lists versions made in the same millisecond in the same order on an en-US collated PostgreSQL as on SQLite', async () => {
    const listed: unknown[] = [];
    for (const name of ['sqlite', 'postgres'] as const) {
      const harness = createHarness(name);
      harnesses.push(harness);
      const store = harness.openStore({ now: () => Date.UTC(2026, 0, 1) });
      await store.migrate();
      if (name === 'postgres') {
        await sql`alter table ${sql.table(`${harness.prefix}threads`)} alter column id type text collate "en-US-x-icu"`.execute(
          harness.raw,
        );
      }
      await store.appendTurn('chat', qa('t1', 'one'));
      await store.appendTurn('chat', qa('t2', 'two'));
      for (const id of ['b-alt', 'B-alt', 'a-alt']) {
        await store.addAlternative('chat', { turnId: 't2', newThreadId: id });
        await store.appendTurn(id, qa(`t2-${id}`, 'two', id));
        await store.switchAlternative('chat', 'chat');
      }
      const { branches, versions, activePath } = await store.getAlternatives('chat');
      listed.push({ branches, versions, activePath });
      await store.close();
    }
    const [onSqlite, onPostgres] = listed as [
      Awaited<ReturnType<ChunkStore['getAlternatives']>>,
      Awaited<ReturnType<ChunkStore['getAlternatives']>>,
    ];
    expect(onSqlite.versions.map((v) => v.threadId)).toEqual(['chat', 'B-alt', 'a-alt', 'b-alt']);
    expect(onPostgres).toEqual(onSqlite);
  });
});
