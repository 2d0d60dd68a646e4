// The remote subscribers of bench/relay.bench.ts, in a process of their own (as another instance
// would be): for each thread id read on stdin, 50 readers follow the thread on a Redis relay of
// their own until its turn ends, and the process prints `DONE <thread>`.
//   REDIS_URL=<url>  PREFIX=<keys>  READERS=<count>
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { createRedisRelay } from '../src/relay/index.js';

const redis = new Redis(process.env.REDIS_URL as string);
redis.on('error', () => {});
const relay = createRedisRelay({ redis, prefix: process.env.PREFIX });
const readers = Number(process.env.READERS ?? 50);

async function follow(threadId: string): Promise<void> {
  for await (const read of relay.follow(threadId)) {
    if (read.type === 'event' && read.event.type === 'turn-end') return;
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  const threadId = line.trim();
  if (threadId === '') continue;
  void Promise.all(Array.from({ length: readers }, () => follow(threadId))).then(() =>
    process.stdout.write(`DONE ${threadId}\n`),
  );
  process.stdout.write(`FOLLOWING ${threadId}\n`);
}
await relay.close();
redis.disconnect();
