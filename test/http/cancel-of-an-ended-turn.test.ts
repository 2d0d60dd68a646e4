// A cancel naming a turn is answered by the process that runs it, never from the store (notes/0122):
// a client's turn id may be stored, ended, on one version of a conversation while a turn of the
// same id runs on another, and the active path may be switched while it runs. A check of the
// named turn's status on the active path would refuse this cancel with 409 `not-running`.
import { afterEach, expect, it } from 'vitest';
import { createAgentSession, createChunkHandlers } from '../../src/entries/session.js';
import { createChunkStore } from '../../src/store/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { sequentialIds } from '../session/support.js';
import { gatedTool } from '../support/gated-tool.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const post = (path: string, body: unknown) =>
  new Request(`http://x${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

it('a cancel naming a running turn stops it, though the active path holds an ended turn of its id', async () => {
  const store = createChunkStore({ sqlite: ':memory:' });
  await store.migrate();
  closers.push(() => store.close());
  const gate = gatedTool({ abortable: true });
  // `hold` calls the gated tool, then answers; anything else is answered at once.
  const model = createScriptedModel((call) => {
    const last = call.prompt.at(-1);
    const user = call.prompt.filter((m) => m.role === 'user').at(-1);
    const text = user?.content.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? '';
    if (text === 'hold' && last?.role !== 'tool') {
      return { parts: [{ type: 'tool-call', toolName: 'wait', input: {} }] };
    }
    return { parts: [{ type: 'text', text: `answer to ${text}` }] };
  });
  const session = createAgentSession({
    store,
    threadId: 'th',
    model,
    tools: { wait: gate.wait },
    idGenerator: sequentialIds('t'),
  });
  closers.push(() => session.close());
  const handlers = createChunkHandlers({ store, session, authorize: () => true });

  // Version 1 (the conversation's own thread): t1, then the client's turn `x`, both completed.
  expect((await session.send('first').result).outcome).toBe('completed');
  expect((await session.send({ text: 'second', turnId: 'x' }).result).outcome).toBe('completed');
  // Version 2 branches before t1: `x` is not on it, so the client's `x` runs there again.
  expect((await session.regenerate('t1').result).outcome).toBe('completed');
  const version2 = await store.activePath('th');
  expect(version2).not.toBe('th');
  expect(await store.getTurnInfo(version2, 'x')).toBeNull();
  const running = session.send({ text: 'hold', turnId: 'x' });
  await gate.running;
  expect((await store.getTurnInfo(version2, 'x'))?.status ?? 'not stored yet').not.toBe(
    'completed',
  );

  // The conversation is switched back to version 1 while `x` runs on version 2.
  const switched = await handlers.fetch(post('/threads/th/alternatives', { threadId: 'th' }));
  expect(switched.status).toBe(200);
  expect(await store.activePath('th')).toBe('th');
  expect((await store.getTurnInfo('th', 'x'))?.status).toBe('completed');

  const cancel = await handlers.fetch(post('/threads/th/cancel', { turnId: 'x' }));
  expect({ status: cancel.status, body: await cancel.json() }).toEqual({
    status: 202,
    body: { turnId: 'x' },
  });
  expect((await running.result).outcome).toBe('cancelled');
  expect((await store.getTurnInfo(version2, 'x'))?.status).toBe('cancelled');
  expect((await store.getTurnInfo('th', 'x'))?.status).toBe('completed');
});
