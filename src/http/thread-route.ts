import { checkThreadId } from './params.js';
import { errorResponse } from './responses.js';

/** A handler of one route of a thread: the request, and the thread id taken from its path. */
export type ThreadRoute = (request: Request, threadId: string) => Promise<Response>;

/**
 * Makes a thread route answer rather than throw, whoever calls it (`handlers.fetch`, or an app's
 * own router calling `handlers.messages(request, threadId)`): a thread id that breaks the one id
 * rule gets a 400 naming `threadId` before anything runs (`authorize` included), and anything the
 * route throws (a `sessions` lookup, a store) a 500 `internal` whose message hides the cause.
 *
 * @param route - the route, given a checked thread id
 * @returns the route that always resolves to a response
 */
export function guardThreadRoute(route: ThreadRoute): ThreadRoute {
  return async (request, threadId) => {
    const checked = checkThreadId(threadId);
    if (!checked.ok) return checked.response;
    try {
      return await route(request, checked.value);
    } catch {
      return errorResponse(500, 'internal', 'The request failed.');
    }
  };
}
