import { createAgentSession } from 'chunklog/session';
import { createChunkStore } from 'chunklog/store';
import { createScriptedModel, parseScript } from 'chunklog/testing';

const store = createChunkStore({ sqlite: 'chat.db' });
await store.migrate();

// A scripted model: no API key, no network. Later: anthropic('claude-sonnet-4-5').
const model = createScriptedModel(parseScript('think The user greets me.\ntext Hello!'));
const session = createAgentSession({ store, threadId: 'hello', model });

for await (const event of session.send('Hi there')) {
  if (event.type === 'text-delta') process.stdout.write(event.text); // live, as it streams
}
console.log();

const page = await store.getChunks('hello', { limit: 50 }); // the newest rows, by keyset
for (const row of page.chunks) console.log(row.seq, row.role, row.type, JSON.stringify(row.data));
console.dir(await session.modelMessages('And now?'), { depth: 4 }); // the next call's input

await session.close();
await store.close();
