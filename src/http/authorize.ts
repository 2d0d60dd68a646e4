import { errorResponse } from './responses.js';
import type { Authorize } from './types.js';

/**
 * Runs `authorize`. Only an explicit `true` lets the request through.
 *
 * @param authorize - the app's function
 * @param request - the request
 * @param threadId - the thread it targets
 * @returns undefined when allowed, else the response to send (401, 403, or the app's own)
 */
export async function checkAccess(
  authorize: Authorize,
  request: Request,
  threadId: string,
): Promise<Response | undefined> {
  let decision: unknown;
  try {
    decision = await authorize(request, threadId);
  } catch {
    return errorResponse(403, 'forbidden', 'Access to this thread was not granted.');
  }
  if (decision === true) return undefined;
  if (decision instanceof Response) return decision;
  if (decision === 'unauthenticated') {
    return errorResponse(401, 'unauthorized', 'Authentication is required.');
  }
  return errorResponse(403, 'forbidden', 'Access to this thread was not granted.');
}
