// The inspector's routes, as links. Ids are escaped into the path; query values by URLSearchParams.

type Query = Readonly<Record<string, string | number | undefined>>;

function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

const seg = encodeURIComponent;

/** `/` (threads). */
export const threadsHref = (query?: Query): string => withQuery('/', query);
/** `/threads/:id` (the thread and its turns). */
export const threadHref = (threadId: string, query?: Query): string =>
  withQuery(`/threads/${seg(threadId)}`, query);
/** `/threads/:id/rows` (pages of rows). */
export const rowsHref = (threadId: string, query?: Query): string =>
  withQuery(`/threads/${seg(threadId)}/rows`, query);
/** `/threads/:id/turns/:turnId` (one turn). */
export const turnHref = (threadId: string, turnId: string, query?: Query): string =>
  withQuery(`/threads/${seg(threadId)}/turns/${seg(turnId)}`, query);
/** `/threads/:id/turns/:turnId/input` (the model input of a step). */
export const inputHref = (threadId: string, turnId: string, query?: Query): string =>
  withQuery(`/threads/${seg(threadId)}/turns/${seg(turnId)}/input`, query);
/** `/search`. */
export const searchHref = (query?: Query): string => withQuery('/search', query);
/**
 * The thread page of one path of a conversation: an alternative's own page, or the conversation
 * pinned to its own path (`/threads/:id?path=:id`: without it, a conversation shows its active path).
 */
export const pathHref = (conversationId: string, threadId: string): string =>
  threadId === conversationId
    ? threadHref(conversationId, { path: conversationId })
    : threadHref(threadId);
