// Probe: a Redis blip (the relay's subscriber connection down) at the moment a turn starts leaves
// that turn uncontrollable for its whole run, although Redis is back a second later: serveControl
// asks #subscriber(), which rejects at once while #down, and the control channel is never
// subscribed afterwards. Every cancel from any instance answers 409 not-running while the turn runs.
import net from 'node:net';
import { Redis } from 'ioredis';
import { createRedisRelay } from '/work/main/dist/relay/index.js';
import { createAgentSession, createChunkHandlers } from '/work/main/dist/session/index.js';
import { createChunkStore } from '/work/main/dist/store/index.js';
import { createScriptedModel } from '/work/main/dist/testing/index.js';

// A TCP proxy of our own in front of Redis.
const sockets = new Set();
let down = false;
const proxy = net.createServer((client) => {
  if (down) return client.destroy();
  const upstream = net.connect(6379, '127.0.0.1');
  sockets.add(client); sockets.add(upstream);
  client.pipe(upstream); upstream.pipe(client);
  const close = () => { client.destroy(); upstream.destroy(); sockets.delete(client); sockets.delete(upstream); };
  client.on('error', close); upstream.on('error', close); client.on('close', close); upstream.on('close', close);
});
await new Promise((r) => proxy.listen(0, '127.0.0.1', r));
const port = proxy.address().port;

const prefix = `probe-blip-${process.pid}`;
const threadId = `probe-blip-thread-${process.pid}`;
const redisA = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: null, retryStrategy: () => 100 });
redisA.on('error', () => {}); // the app's own client: its reconnect noise
const relayErrors = [];
const relayA = createRedisRelay({ redis: redisA, prefix, onError: (e) => relayErrors.push(e.message) });
const store = createChunkStore({ sqlite: ':memory:' });
await store.migrate();
const model = createScriptedModel(() => ({ parts: [{ type: 'text', text: 'Working' }, { type: 'delay', ms: 8000 }, { type: 'text', text: 'done' }] }));
const session = createAgentSession({ store, threadId, model, relay: relayA, lease: true });
// Warm the relay's subscriber connection (a reader on another thread), as a server does.
const warm = new AbortController();
(async () => { try { for await (const _ of relayA.follow('probe-blip-warm', { signal: warm.signal })); } catch {} })();
await new Promise((r) => setTimeout(r, 300));

// The blip: Redis unreachable for one second, during which the turn starts.
const BLIP = process.env.NO_BLIP !== "1";
if (BLIP) { down = true; for (const s of sockets) s.destroy(); }
await new Promise((r) => setTimeout(r, 100));
const turn = session.send('go');
await new Promise((r) => setTimeout(r, 1000));
down = false;
await new Promise((r) => setTimeout(r, 1500)); // ioredis reconnected (and resubscribed what it had)
console.log(BLIP ? 'with a 1 s blip as the turn starts' : 'no blip (control run)');
console.log('redis A status:', redisA.status);

// Another instance, straight to Redis, presses stop.
const redisB = new Redis({ port: 6379, host: '127.0.0.1' });
const relayB = createRedisRelay({ redis: redisB, prefix });
const handlersB = createChunkHandlers({ store, relay: relayB, authorize: () => true });
console.log('relay B runningTurn:', (await relayB.runningTurn(threadId)) === turn.turnId ? 'the turn' : 'none');
const res = await handlersB.fetch(new Request(`http://x/threads/${threadId}/cancel`, { method: 'POST' }));
console.log('POST /cancel on instance B ->', res.status, await res.text());
console.log('turn outcome:', (await turn.result).outcome);
console.log('relay onError:', relayErrors.slice(0, 3));
warm.abort();
await session.close(); await relayA.close(); await relayB.close();
redisA.disconnect(); redisB.disconnect(); proxy.close(); await store.close();
for (const s of sockets) s.destroy();
