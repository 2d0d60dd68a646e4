import { ChunklogError } from '../errors/index.js';
import { threadIdProblem } from '../schema/id.js';
import type { Alternatives } from '../store/types.js';
import { readJsonObject, unknownField } from './params.js';
import { badParameter, errorResponse, json } from './responses.js';
import type { PageStore } from './types.js';

/** The store's answer as JSON, or the response its error calls for. */
async function answer(
  read: () => Promise<Alternatives>,
  threadId: string,
  target?: string,
): Promise<Response> {
  try {
    return json(200, await read());
  } catch (error) {
    if (ChunklogError.hasCode(error, 'thread-not-found')) {
      // The path asked for does not exist: the body is wrong; the conversation does not: 404.
      if (target !== undefined && error.threadId === target && target !== threadId) {
        return badParameter('threadId', `Thread ${JSON.stringify(target)} does not exist.`);
      }
      return errorResponse(404, 'not-found', `Thread ${JSON.stringify(threadId)} does not exist.`);
    }
    if (ChunklogError.hasCode(error, 'invalid-option')) {
      // An alternative given as the conversation (the path), or a path of another conversation.
      const parameter = error.option === 'conversationId' ? 'id' : 'threadId';
      return badParameter(parameter, error.message);
    }
    return errorResponse(500, 'internal', 'The alternatives could not be read.');
  }
}

/**
 * `GET …/threads/:id/alternatives`: the conversation's active path and each branch point's
 * versions (`store.getAlternatives`); `POST …/threads/:id/alternatives` with `{ threadId }`: makes
 * that path (the conversation's own id, or one of its alternatives) the active one
 * (`store.switchAlternative`) and answers the same shape. The next turn of the conversation, and
 * every page read after, follow the active path.
 *
 * @param request - the request (GET or POST)
 * @param store - the handlers' store
 * @param threadId - the conversation (authorized)
 * @param maxBodyBytes - the largest body accepted
 * @returns 200 JSON; 400 naming `threadId` (or `id`, for an alternative's id in the path); 404
 *   for a conversation that does not exist or a store without alternatives
 */
export async function alternativesRoute(
  request: Request,
  store: PageStore,
  threadId: string,
  maxBodyBytes: number,
): Promise<Response> {
  const { getAlternatives, switchAlternative } = store;
  if (typeof getAlternatives !== 'function' || typeof switchAlternative !== 'function') {
    return errorResponse(404, 'not-found', 'The store keeps no alternatives.');
  }
  if (request.method === 'GET') {
    return await answer(() => getAlternatives.call(store, threadId), threadId);
  }
  const body = await readJsonObject(request, maxBodyBytes);
  if (!body.ok) return body.response;
  const unknown = unknownField(body.value, ['threadId']);
  if (unknown !== undefined) return badParameter(unknown.parameter, unknown.message);
  const target = body.value.threadId;
  const problem = threadIdProblem(target);
  if (problem !== undefined) {
    return badParameter(
      'threadId',
      `\`threadId\` must be the id of one of the conversation's paths: it ${problem}.`,
    );
  }
  const path = target as string;
  return await answer(() => switchAlternative.call(store, threadId, path), threadId, path);
}
