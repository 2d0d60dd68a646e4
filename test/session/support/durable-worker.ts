// A session process for the kill-point tests: runs one 5-step turn (thinking, parallel tool calls,
// text) with `durability: 'step'` and a lease, and stops dead at pause point `killAt` (telling
// its parent over IPC, which then SIGKILLs it). Points: before and after each store write, and
// inside each tool's execute.
//   argv[2]: JSON { spec: HarnessSpec, threadId, killAt }
import { createAgentSession } from '../../../src/entries/session.js';
import type { ChunkStore } from '../../../src/store/index.js';
import { createScriptedModel } from '../../../src/testing/index.js';
import { type HarnessSpec, openStoreFromSpec } from '../../store/support/dialects.js';
import { durableScript, durableTools } from './durable-script.js';
import { openKillingStore } from './kill-in-transaction.js';

interface Job {
  readonly spec: HarnessSpec;
  readonly threadId: string;
  /** The pause point to stop at; -1 runs the turn to its end. */
  readonly killAt: number;
  /**
   * Instead of the 5-step turn: send this many one-step turns (ids `${writer}-${i}`), each
   * reporting how many user messages its model input held.
   */
  readonly turns?: number;
  readonly writer?: string;
  /**
   * Kill inside a step write instead of at a pause point: the process SIGKILLs itself right
   * after the chunk INSERT of this `appendSteps` call (0-based), its transaction still open.
   */
  readonly killInWrite?: number;
}

const send = (message: unknown) =>
  new Promise<void>((resolve) => {
    if (process.send) process.send(message, () => resolve());
    else resolve();
  });

if (process.argv[2] !== undefined && process.send !== undefined) {
  const job = JSON.parse(process.argv[2]) as Job;
  /** Set while the step write to kill inside runs. */
  let armed = false;
  const chunksTable = new RegExp(`insert into [\`"]${job.spec.prefix}chunks[\`"]`, 'i');
  const store =
    job.killInWrite === undefined
      ? openStoreFromSpec(job.spec)
      : openKillingStore(job.spec, (sql) => armed && chunksTable.test(sql));
  let appendCalls = 0;
  let point = 0;
  /** A pause point: at `killAt`, tells the parent and waits for the kill. */
  const pause = async (name: string) => {
    const here = point++;
    if (here !== job.killAt) return;
    await send({ type: 'point', point: here, name });
    // Wait for the kill. A pending promise alone does not keep a process alive (Node 22 exits
    // with code 13, an unsettled top-level await, once nothing else is pending): a timer does.
    setInterval(() => {}, 60_000);
    await new Promise(() => {});
  };
  const wrapped: ChunkStore = Object.create(store);
  wrapped.beginTurn = async (...args) => {
    await pause('before beginTurn');
    const result = await store.beginTurn(...args);
    await send({ type: 'written', rows: result.rows.length });
    await pause('after beginTurn');
    return result;
  };
  wrapped.appendSteps = async (...args) => {
    if (appendCalls++ === job.killInWrite) armed = true;
    await pause(`before appendSteps (${args[2].length} rows)`);
    const rows = await store.appendSteps(...args);
    await send({ type: 'written', rows: rows.length });
    await pause('after appendSteps');
    return rows;
  };
  if (job.turns !== undefined) {
    const writer = job.writer ?? 'w';
    const model = createScriptedModel(
      Array.from({ length: job.turns }, (_, i) => ({
        parts: [{ type: 'text' as const, text: `${writer} answer ${i}` }],
      })),
    );
    const doStream = model.doStream.bind(model);
    const counting = Object.assign(Object.create(model) as typeof model, {
      doStream: async (options: Parameters<typeof doStream>[0]) => {
        const users = options.prompt.filter((m) => m.role === 'user').length;
        await send({ type: 'prompt', users });
        return doStream(options);
      },
    });
    try {
      let i = 0;
      const session = createAgentSession({
        store,
        threadId: job.threadId,
        model: counting,
        idGenerator: () => `${writer}-${i++}`,
        durability: 'step',
        lease: { ttlMs: 60_000, holder: `${writer}-${process.pid}` },
      });
      for (let t = 0; t < job.turns; t++) {
        const turn = session.send(`${writer} question ${t}`);
        await turn.rows;
        await send({ type: 'turn', turnId: turn.turnId });
      }
      await session.close();
      await send({ type: 'done', points: 0 });
    } catch (error) {
      await send({ type: 'error', message: error instanceof Error ? error.stack : String(error) });
      process.exitCode = 1;
    } finally {
      await store.close();
    }
  } else
    try {
      const session = createAgentSession({
        store: wrapped,
        threadId: job.threadId,
        model: durableScript(),
        tools: durableTools(pause),
        idGenerator: () => 'turn-1',
        durability: 'step',
        lease: { ttlMs: 3_600_000, holder: `worker-${process.pid}` },
      });
      await session.send('What do the files export?').rows;
      await session.close();
      await send({ type: 'done', points: point });
    } catch (error) {
      await send({ type: 'error', message: error instanceof Error ? error.stack : String(error) });
      process.exitCode = 1;
    } finally {
      await store.close();
    }
  process.disconnect?.();
}
