// Export -> import of a conversation with an edited turn: `exportThread(store, conversationId)`
// (and `chunklog export <db> <conversationId>`) writes the conversation's own (original) path,
// not the active path the user sees, and drops every other version without a word; the import is
// a plain thread with no alternatives.
import { exportThread, importThread } from '../dist/transfer/index.js';
import { DIALECTS, openStores, turn } from './_probe_history_lib.mjs';

for (const dialect of DIALECTS) {
  const { stores: [store], close } = await openStores(dialect);
  const C = `conv-${Date.now()}`;
  await store.appendTurn(C, turn('t1', 'q1', 'a1'));
  await store.appendTurn(C, turn('t2', 'q2', 'a2'));
  const v = await store.addAlternative(C, { turnId: 't2', newThreadId: `${C}-v` });
  await store.appendTurn(v.id, turn('t2b', 'q2 edited', 'a2b'));
  await store.appendTurn(v.id, turn('t3', 'q3', 'a3'));
  const seen = (await store.getMessages(await store.activePath(C))).map((m) => m.turnId + ':' + m.role);
  let text = '';
  for await (const line of exportThread(store, C)) text += line;
  const res = await importThread(store, text, { threadId: `${C}-copy` });
  const copy = (await store.getMessages(res.threadId)).map((m) => m.turnId + ':' + m.role);
  const alts = await store.getAlternatives(C);
  const altsCopy = await store.getAlternatives(res.threadId);
  console.log(dialect, {
    activePathSeen: seen.join(' '),
    exportedThenImported: copy.join(' '),
    branchesBefore: alts.branches.length,
    branchesInCopy: altsCopy.branches.length,
    exportMentionsVersions: /t2b|alternative/.test(text),
  });
  await close();
}

// The command line does the same (default table names, a fresh SQLite file).
{
  const { execFileSync } = await import('node:child_process');
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { createChunkStore } = await import('../dist/store/index.js');
  const file = join(mkdtempSync(join(tmpdir(), 'probe-cli-')), 'chat.db');
  const store = createChunkStore({ sqlite: file });
  await store.migrate();
  await store.appendTurn('c', turn('t1', 'q1', 'a1'));
  await store.appendTurn('c', turn('t2', 'q2', 'a2'));
  const v = await store.addAlternative('c', { turnId: 't2', newThreadId: 'c-v' });
  await store.appendTurn(v.id, turn('t2b', 'q2 edited', 'a2b'));
  await store.close();
  const out = execFileSync('node', ['dist/cli.js', 'export', file, 'c'], { encoding: 'utf8' });
  console.log('cli export of conversation "c" (active path is c-v):');
  console.log(out.split('\n').filter((l) => l.includes('"turn"')).join('\n'));
}
