// The web chat's sessions: one per thread, made when a thread is first asked about and closed
// again once it has been idle for `idleMs` (no request for it, no turn running or queued), so a
// server that is asked about many threads does not keep a session for each of them forever.
// A closed session's event streams end; a client that comes back gets a new session, which
// reads the thread from the store.
import type { AgentSession } from 'chunklog/session';

export interface SessionPoolOptions {
  /** Makes the session of a thread. */
  readonly create: (threadId: string) => AgentSession;
  /** How long a session may stay unused before it is closed, in milliseconds. */
  readonly idleMs: number;
  /** The clock, in milliseconds (injectable for tests). Default `Date.now`. */
  readonly now?: () => number;
}

export interface SessionPool {
  /** The thread's session, made when needed; marks it used now. */
  get(threadId: string): AgentSession;
  /** Closes the sessions idle for `idleMs` or more; returns the threads whose sessions it closed. */
  sweep(): Promise<string[]>;
  /** How many sessions are open. */
  readonly size: number;
  /** Closes every session. */
  close(): Promise<void>;
}

export function createSessionPool(options: SessionPoolOptions): SessionPool {
  const now = options.now ?? Date.now;
  const sessions = new Map<string, { session: AgentSession; usedAt: number }>();
  return {
    get(threadId) {
      let entry = sessions.get(threadId);
      if (entry === undefined) {
        entry = { session: options.create(threadId), usedAt: now() };
        sessions.set(threadId, entry);
      }
      entry.usedAt = now();
      return entry.session;
    },
    async sweep() {
      const closed: string[] = [];
      for (const [threadId, { session, usedAt }] of sessions) {
        const busy = session.runningTurnId !== undefined || session.queued > 0;
        if (busy || now() - usedAt < options.idleMs) continue;
        sessions.delete(threadId);
        closed.push(threadId);
        await session.close();
      }
      return closed;
    },
    get size() {
      return sessions.size;
    },
    async close() {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.all(all.map(({ session }) => session.close()));
    },
  };
}
