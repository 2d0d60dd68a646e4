// Each page of the inspector: what it reads from the store, and the view it renders.
import { ChunklogError } from '../errors/chunklog-error.js';
import { estimateTokens } from '../model-messages/token-estimate.js';
import type { ChunkRow } from '../schema/chunk-row.js';
import type { TurnInfo } from '../store/turn-types.js';
import type { Thread } from '../store/types.js';
import type { PriceFunction } from '../store/usage-types.js';
import { readFilter } from './filters.js';
import { shortId } from './format.js';
import type { SafeHtml } from './html.js';
import { errorPage } from './layout.js';
import { countBreakpoints, historyBefore, stepInput, turnSteps } from './model-input.js';
import { RUNNING_NOT_STORED } from './not-stored.js';
import { inputPage } from './pages/input-page.js';
import { rowsPage } from './pages/rows-page.js';
import { searchPage } from './pages/search-page.js';
import { threadPage } from './pages/thread-page.js';
import { threadsPage } from './pages/threads-page.js';
import { turnPage } from './pages/turn-page.js';
import { readPaths } from './paths.js';
import { intParam, textParam } from './query.js';
import {
  type InspectedStore,
  orUndefined,
  rowAfter,
  rowBefore,
  threadUsage,
  turnInfo,
  turnUsage,
} from './reads.js';
import { readRows } from './row-scan.js';
import { searchRows } from './search.js';
import { listTurnSummaries } from './turn-list.js';

/** What every page is given. */
export interface PageContext {
  readonly store: InspectedStore;
  readonly params: URLSearchParams;
  readonly now: Date;
  readonly limits: {
    readonly threads: number;
    readonly rows: number;
    readonly turns: number;
    readonly searchRows: number;
    readonly searchHits: number;
    readonly filterScan: number;
    readonly inputMessages: number;
  };
  readonly price: PriceFunction | undefined;
  readonly refreshSeconds: number;
}

/** A page to send. */
export interface PageResult {
  readonly status?: number | undefined;
  readonly title: string;
  readonly body: SafeHtml;
  readonly refreshSeconds?: number | undefined;
  readonly query?: string | undefined;
}

/** `/`: the threads. */
export async function threadsRoute(ctx: PageContext): Promise<PageResult> {
  const before = textParam(ctx.params, 'before', 1000);
  // A thread whose row does not read (its key gone) is listed apart, not a failed page.
  const threads = await ctx.store.listThreads({
    limit: ctx.limits.threads,
    onCorruptRow: 'skip',
    ...(before !== undefined ? { before } : {}),
  });
  return { title: 'Threads', body: threadsPage(threads, before, ctx.now) };
}

/** The `path` query value: a conversation's path to show instead of its active one. */
const pathParam = (ctx: PageContext) => textParam(ctx.params, 'path', 1000);

/**
 * `/threads/:id`: the thread, its forks and alternatives, and a page of the turns of its path (a
 * conversation's active one, or `?path=`).
 */
export async function threadRoute(ctx: PageContext, threadId: string): Promise<PageResult> {
  const paths = await readPaths(ctx.store, threadId, pathParam(ctx));
  const before = intParam(ctx.params, 'before');
  const status = readFilter(ctx.params).status;
  const turns = await listTurnSummaries(ctx.store, paths.path.id, {
    limit: ctx.limits.turns,
    before,
    status,
    price: ctx.price,
  });
  const usage = await threadUsage(ctx.store, threadId, ctx.price);
  const running = before === undefined && turns.turns.some((t) => t.info?.status === 'running');
  return {
    title: `Thread ${shortId(threadId)}`,
    body: threadPage({
      paths,
      usage,
      turns,
      status,
      before,
      priced: ctx.price !== undefined,
      now: ctx.now,
    }),
    // A running turn: the list reloads, less often than the turn's own page.
    ...(running ? { refreshSeconds: ctx.refreshSeconds * 3 } : {}),
  };
}

/** `/threads/:id/rows`: a page of rows of the thread's path, filtered or not. */
export async function rowsRoute(ctx: PageContext, threadId: string): Promise<PageResult> {
  const paths = await readPaths(ctx.store, threadId, pathParam(ctx));
  const thread = paths.path;
  const before = intParam(ctx.params, 'before');
  const filter = readFilter(ctx.params);
  const read = await readRows(ctx.store, thread.id, {
    filter,
    before,
    limit: ctx.limits.rows,
    scanLimit: ctx.limits.filterScan,
  });
  return {
    title: `Rows of ${shortId(thread.id)}`,
    body: rowsPage({ thread, paths, read, filter, before, now: ctx.now }),
  };
}

/** A turn's thread, rows and status as a page shows them; a 404 page when it is not stored. */
interface StoredTurn {
  readonly threadId: string;
  readonly turnId: string;
  readonly thread: Thread;
  readonly rows: ChunkRow[];
  readonly info: TurnInfo | undefined;
}

/** A route of one turn's page. */
type TurnRoute = (ctx: PageContext, threadId: string, turnId: string) => Promise<PageResult>;

/**
 * A route of one stored turn: reads the turn, then builds its page (a 404 page when the turn is
 * not stored).
 */
function routeOfTurn(
  build: (ctx: PageContext, turn: StoredTurn) => Promise<PageResult>,
): TurnRoute {
  return async (ctx, threadId, turnId) => {
    const turn = await readTurn(ctx, threadId, turnId);
    return turn.found ? await build(ctx, turn) : turn.page;
  };
}

async function readTurn(
  ctx: PageContext,
  threadId: string,
  turnId: string,
): Promise<
  ({ readonly found: true } & StoredTurn) | { readonly found: false; readonly page: PageResult }
> {
  const thread = await ctx.store.getThread(threadId);
  const rows = await ctx.store.getTurn(threadId, turnId);
  if (rows === null) {
    return {
      found: false,
      page: {
        status: 404,
        title: 'No such turn',
        body: errorPage(
          'No such turn',
          `Thread ${threadId} has no turn ${turnId}. ${RUNNING_NOT_STORED}`,
        ),
      },
    };
  }
  const info = await turnInfo(ctx.store, threadId, turnId);
  return { found: true, threadId, turnId, thread, rows, info };
}

/** `/threads/:id/turns/:turnId`: one turn. */
export const turnRoute: TurnRoute = routeOfTurn(
  async (ctx, { threadId, turnId, thread, rows, info }) => {
    const usage = await turnUsage(ctx.store, threadId, turnId, ctx.price);
    const first = info?.firstSeq ?? rows[0]?.seq ?? 1;
    const last = info !== undefined ? info.nextSeq - 1 : (rows.at(-1)?.seq ?? first);
    const previous = (await rowBefore(ctx.store, threadId, first))?.turnId;
    const next = (await rowAfter(ctx.store, threadId, last))?.turnId;
    const running = info?.status === 'running';
    return {
      title: `Turn ${shortId(turnId)}`,
      body: turnPage({
        thread,
        turnId,
        rows,
        usage,
        info,
        previous,
        next,
        refreshSeconds: ctx.refreshSeconds,
        now: ctx.now,
      }),
      ...(running ? { refreshSeconds: ctx.refreshSeconds } : {}),
    };
  },
);

/** `/threads/:id/turns/:turnId/input`: the model input of one step. */
export const inputRoute: TurnRoute = routeOfTurn(
  async (ctx, { threadId, turnId, thread, rows, info }) => {
    const steps = turnSteps(rows);
    const step = intParam(ctx.params, 'step', 0) ?? 0;
    if (!steps.includes(step)) {
      throw new ChunklogError('invalid-option', `step must be from 0 to ${steps.length - 1}`, {
        option: 'step',
        value: step,
      });
    }
    const usage = await turnUsage(ctx.store, threadId, turnId);
    const history = await historyBefore(ctx.store, threadId, info?.firstSeq ?? rows[0]?.seq ?? 1);
    const modelOf = (s: number) => usage?.steps.find((u) => u.step === s)?.modelId;
    const messages = stepInput(history, rows, step, modelOf(step));
    // What the step added: to the step before, or (step 0) to the history alone.
    const previousLength =
      step === 0
        ? stepInput(history, [], 0, modelOf(0)).length
        : stepInput(history, rows, step - 1, modelOf(step - 1)).length;
    return {
      title: `Model input of ${shortId(turnId)}, step ${step}`,
      body: inputPage({
        thread,
        turnId,
        steps,
        step,
        messages,
        previousLength,
        historyRows: history.length,
        tokens: estimateTokens(messages),
        breakpoints: countBreakpoints(messages),
        usage,
        window: ctx.limits.inputMessages,
        all: ctx.params.get('all') === '1',
      }),
    };
  },
);

/** `/search`: text across threads, or in one. */
export async function searchRoute(ctx: PageContext): Promise<PageResult> {
  const query = textParam(ctx.params, 'q', 200);
  const threadId = textParam(ctx.params, 'thread', 1000);
  const thread = threadId !== undefined ? await ctx.store.getThread(threadId) : undefined;
  const filter = readFilter(ctx.params);
  const index = intParam(ctx.params, 'ti', 0);
  const before = intParam(ctx.params, 'ts');
  const threadsBefore = textParam(ctx.params, 'tp', 1000);
  const version = textParam(ctx.params, 'tv', 1000);
  const cursor =
    index !== undefined ||
    before !== undefined ||
    threadsBefore !== undefined ||
    version !== undefined
      ? { threadsBefore, index: index ?? 0, version, before }
      : undefined;
  // A query that is a thread's id (an alternative's, which no list shows): one read, first page.
  const idMatch =
    query !== undefined && cursor === undefined && thread === undefined
      ? await orUndefined(ctx.store.getThread(query))
      : undefined;
  const result =
    query === undefined
      ? undefined
      : await searchRows(ctx.store, {
          query,
          thread,
          filter,
          rowBudget: ctx.limits.searchRows,
          maxHits: ctx.limits.searchHits,
          cursor,
        });
  return {
    title: query === undefined ? 'Search' : `Search “${query}”`,
    body: searchPage({
      query: query ?? '',
      thread,
      filter,
      result,
      rowBudget: ctx.limits.searchRows,
      maxHits: ctx.limits.searchHits,
      idMatch,
      now: ctx.now,
    }),
    query,
  };
}
