// Every streaming fixture of the AI SDK's language-model providers (../shared/fixtures/
// ai-sdk-fixtures, 138 files, 134 runs, 15 providers) replayed through its real provider into
// `streamText`: folded three ways, stored in SQLite, paged back three rows at a time, grouped and
// rebuilt; the request the provider then sends equals the one the AI SDK's own messages make, for
// every step of the run and for the next call after it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Chunk,
  type ChunkEvent,
  type ChunkRow,
  createTurnState,
  explodeTurn,
  foldStream,
  foldTurn,
  groupRowsToMessages,
  mergeRowsBySeq,
  reduceTurn,
  toChunkEventStream,
  toModelMessages,
} from '../../src/index.js';
import { type ChunkStore, createChunkStore } from '../../src/store/index.js';
import { PROMPT, requestBody, streamRun } from '../support/provider-fixtures/replay.js';
import { type FixtureRun, fixtureRuns } from '../support/provider-fixtures/runs.js';
import { localToolNames, localTools } from '../support/provider-fixtures/tools.js';
import { sharedFixturesAvailable } from '../support/shared-fixtures.js';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const available = sharedFixturesAvailable('ai-sdk-fixtures');
const runs: FixtureRun[] = available ? fixtureRuns() : [];

async function* iterate<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}

async function pagesOf(store: ChunkStore, threadId: string): Promise<ChunkRow[][]> {
  const pages: ChunkRow[][] = [];
  let before: number | undefined;
  for (;;) {
    const page = await store.getChunks(threadId, {
      limit: 3,
      ...(before !== undefined && { before }),
    });
    pages.push(page.chunks);
    if (!page.hasMore || page.oldestSeq === null) return pages;
    before = page.oldestSeq;
  }
}

describe.runIf(available)(
  'AI SDK provider fixtures: stored, paged and rebuilt as the AI SDK sends them',
  () => {
    let store: ChunkStore;
    beforeAll(async () => {
      store = createChunkStore({ sqlite: ':memory:' });
      await store.migrate();
    });
    afterAll(async () => {
      await store.close();
    });

    it('finds every run of the fixture folder', () => {
      expect(runs).toHaveLength(134);
      expect(new Set(runs.map((r) => r.provider)).size).toBe(15);
    });

    for (const run of runs) {
      it(`${run.provider}/${run.name}`, async () => {
        const tools = localTools(await localToolNames(run));
        const recorded = await streamRun(run, tools);
        expect(recorded.requests).toHaveLength(run.responses.length);

        const events: ChunkEvent[] = [];
        for await (const event of toChunkEventStream(iterate(recorded.parts))) events.push(event);
        const reduced = events.reduce(reduceTurn, createTurnState());
        const folded = foldTurn(events);
        const streamed = await foldStream(iterate(recorded.parts));
        expect(folded.chunks).toStrictEqual(reduced.chunks);
        expect(streamed.chunks).toStrictEqual(reduced.chunks);
        const chunks: readonly Chunk[] = reduced.chunks;

        const threadId = `${run.provider}/${run.name}`;
        await store.appendTurn(threadId, [
          ...explodeTurn('turn', [{ type: 'text', step: 0, text: PROMPT }], { role: 'user' }),
          ...explodeTurn('turn', chunks, { role: 'assistant' }),
        ]);
        const rows = mergeRowsBySeq(...(await pagesOf(store, threadId)));
        const messages = groupRowsToMessages(rows);
        expect(messages.at(-1)?.chunks ?? []).toStrictEqual(chunks);

        for (let step = 1; step < run.responses.length; step++) {
          const history = groupRowsToMessages(rows.filter((r) => r.step < step));
          const mine = await requestBody(run, tools, toModelMessages(history));
          expect(mine, `the request of step ${step}`).toStrictEqual(recorded.requests[step]);
        }

        const next = { role: 'user' as const, content: 'And then?' };
        const fromSdk = await requestBody(run, tools, [
          { role: 'user', content: PROMPT },
          ...recorded.responseMessages,
          next,
        ]);
        const fromStore = await requestBody(run, tools, [...toModelMessages(messages), next]);
        expect(fromStore).toStrictEqual(fromSdk);
      });
    }
  },
);
