// Probe: with `redact`, a steering message reaches the model unredacted (LiveTurn.steer hands the
// raw text to the AI SDK's steering); only its `steering-message` event is redacted, so the store
// and the wire hold the redacted text while the provider got the secret.
import { redactSecrets } from '/work/main/dist/index.js';
import { createAgentSession } from '/work/main/dist/session/index.js';
import { createChunkStore } from '/work/main/dist/store/index.js';
import { createScriptedModel } from '/work/main/dist/testing/index.js';
import { tool } from 'ai';
import { z } from 'zod';

const store = createChunkStore({ sqlite: ':memory:' });
await store.migrate();
let release;
const gate = new Promise((r) => (release = r));
const wait = tool({ description: 'wait', inputSchema: z.object({}), execute: async () => { await gate; return 'ok'; } });
const model = createScriptedModel([
  { parts: [{ type: 'tool-call', toolName: 'wait', input: {} }] },
  { parts: [{ type: 'text', text: 'Done.' }] },
]);
const session = createAgentSession({ store, threadId: 'probe-steer-redact', model, tools: { wait }, redact: redactSecrets });
const secret = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOp';
const turn = session.send(`Use my key ${secret} please`);
for await (const e of turn) if (e.type === 'tool-call') break;
const steer = session.steer(`Actually use this key: ${secret}`);
release();
console.log('steer outcome:', (await steer.outcome).type);
await turn.result;
const prompts = JSON.stringify(model.prompts);
console.log('first user message sent redacted:', !JSON.stringify(model.prompts[0]).includes(secret));
console.log('secret in the prompt of step 2 (steering):', JSON.stringify(model.prompts[1]).includes(secret));
const stored = JSON.stringify(await store.getChunks('probe-steer-redact', { limit: 100 }));
console.log('secret in the store:', stored.includes(secret));
await session.close(); await store.close();
