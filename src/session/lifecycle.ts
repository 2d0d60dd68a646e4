// The life of a session's work as a pure transition: `(state, command) → (state, effects)`. The
// session (session.ts) turns its public calls into commands and carries out the effects (taking
// the lease, running the model, writing, dropping); their ends come back as commands. One job at
// a time holds the thread: it is admitted (lease, recovery, a stored turn id), runs (its events
// go out), and is sealed (stored, its `turn-end` published); the next job waits in the queue.
// An admission that takes the lease over may first continue a dead holder's turn (`recovering`):
// that turn is then the running one, and a cancel of "the running turn" is its.

/** What a job is: a user's turn, a system notice of its own, or a resume of interrupted turns. */
export type JobKind = 'turn' | 'notice' | 'resume';

/** A unit of the session's work. Its `id` is the session's own; `turnId` names a user's turn. */
export interface Job {
  readonly id: number;
  readonly kind: JobKind;
  readonly turnId?: string | undefined;
}

/**
 * Where the job holding the thread is: admitted, admitted while its admission continues an
 * interrupted turn (`recovering`), running, or being sealed.
 */
export type Phase = 'admitting' | 'recovering' | 'running' | 'sealing';

/** The job holding the thread. */
export interface Current {
  readonly job: Job;
  readonly phase: Phase;
  /** Why it was cancelled, once it was (the first reason given is kept). */
  readonly cancelled: string | undefined;
}

/** The session's work: the job holding the thread, those waiting, and whether it is closed. */
export interface LifecycleState {
  readonly closed: boolean;
  readonly current: Current | undefined;
  readonly queue: readonly Job[];
}

/** What happens to the session's work. */
export type Command =
  /** A job arrives: at the back of the queue, or (`front`) before the waiting ones. */
  | { readonly type: 'enqueue'; readonly job: Job; readonly front: boolean }
  /**
   * Cancel a job: the current one (`'current'`), or the job of that id (waiting or current). A
   * waiting job is dropped; an admitted one stops waiting and is dropped; a running one is
   * aborted (it ends `cancelled`); a job being sealed is no longer cancellable. While an
   * admission continues an interrupted turn, `'current'` is that turn: it is aborted, and the
   * job is admitted after it.
   */
  | { readonly type: 'cancel'; readonly target: 'current' | number; readonly reason: string }
  /**
   * A turn the current job's admission continues (a dead holder's, `recovery: 'continue'`)
   * started (`running`) or ended (its `turn-end` folded).
   */
  | { readonly type: 'recovery'; readonly job: number; readonly running: boolean }
  /** The current job's admission ended: it runs now, or it was settled without running. */
  | { readonly type: 'admitted'; readonly job: number; readonly run: boolean }
  /** The current job's model run ended (its `turn-end` is folded): it is being sealed. */
  | { readonly type: 'ended'; readonly job: number }
  /** The current job is sealed (stored, or its write failed): the next one starts. */
  | { readonly type: 'sealed'; readonly job: number }
  /** Close: drop every waiting job, cancel the current one, take no more. */
  | { readonly type: 'close'; readonly reason: string };

/** What the session must carry out. */
export type Effect =
  /** Admit the job (lease, recovery, stored turn id); answer with `admitted`. */
  | { readonly type: 'admit'; readonly job: Job }
  /** Stop the job's admission (a lease wait): it answers `admitted` without running. */
  | { readonly type: 'stop-admission'; readonly job: Job; readonly reason: string }
  /** Run the job; answer with `ended` when its model run ends, then `sealed`. */
  | { readonly type: 'run'; readonly job: Job }
  /**
   * Abort the model run in progress for the job (its own, or the interrupted turn its admission
   * continues): it ends `cancelled` with `reason`.
   */
  | { readonly type: 'abort'; readonly job: Job; readonly reason: string }
  /** Settle a job that will never run as `dropped`. */
  | { readonly type: 'drop'; readonly job: Job }
  /** Nothing runs or waits. */
  | { readonly type: 'idle' };

/** A transition's outcome: the next state, what to carry out, and whether a cancel hit a job. */
export interface Transition {
  readonly state: LifecycleState;
  readonly effects: readonly Effect[];
  /** For `cancel`: the job it reached, or undefined when it reached none. */
  readonly hit?: Job | undefined;
}

/** The state of a new session: nothing runs, nothing waits. */
export const INITIAL_LIFECYCLE: LifecycleState = { closed: false, current: undefined, queue: [] };

/** Whether the job is being admitted (continuing an interrupted turn or not). */
const admitting = (current: Current) =>
  current.phase === 'admitting' || current.phase === 'recovering';

/** Starts the next waiting job when the thread is free (after `effects`). */
function next(state: LifecycleState, effects: Effect[]): Transition {
  if (state.current !== undefined) return { state, effects };
  const [job, ...queue] = state.queue;
  if (job === undefined || state.closed) {
    effects.push({ type: 'idle' });
    return { state: { ...state, queue: [] }, effects };
  }
  effects.push({ type: 'admit', job });
  return {
    state: { ...state, queue, current: { job, phase: 'admitting', cancelled: undefined } },
    effects,
  };
}

/**
 * The session's lifecycle as a pure function: the state after `command`, and what to carry out.
 * It never changes `state`. A command about a job that is not current (a late answer) changes
 * nothing.
 *
 * @param state - the state before
 * @param command - what happened
 * @returns the state after, the effects, and for a cancel the job it reached
 */
export function transition(state: LifecycleState, command: Command): Transition {
  const current = state.current;
  switch (command.type) {
    case 'enqueue': {
      if (state.closed) return { state, effects: [{ type: 'drop', job: command.job }] };
      const queue = command.front ? [command.job, ...state.queue] : [...state.queue, command.job];
      return next({ ...state, queue }, []);
    }
    case 'cancel': {
      const target = command.target;
      if (target !== 'current') {
        const waiting = state.queue.find((job) => job.id === target);
        if (waiting !== undefined) {
          const queue = state.queue.filter((job) => job !== waiting);
          return {
            state: { ...state, queue },
            effects: [{ type: 'drop', job: waiting }],
            hit: waiting,
          };
        }
      }
      if (current === undefined || (target !== 'current' && current.job.id !== target)) {
        return { state, effects: [] };
      }
      if (current.phase === 'sealing') return { state, effects: [] };
      if (current.phase === 'recovering' && target === 'current') {
        const effect: Effect = { type: 'abort', job: current.job, reason: command.reason };
        return { state, effects: [effect], hit: current.job };
      }
      if (current.cancelled !== undefined) return { state, effects: [], hit: current.job };
      const cancelled: Current = { ...current, cancelled: command.reason };
      const effect: Effect =
        current.phase === 'running'
          ? { type: 'abort', job: current.job, reason: command.reason }
          : { type: 'stop-admission', job: current.job, reason: command.reason };
      return { state: { ...state, current: cancelled }, effects: [effect], hit: current.job };
    }
    case 'recovery': {
      const from = command.running ? 'admitting' : 'recovering';
      if (current?.job.id !== command.job || current.phase !== from) return { state, effects: [] };
      const phase = command.running ? 'recovering' : 'admitting';
      return { state: { ...state, current: { ...current, phase } }, effects: [] };
    }
    case 'admitted': {
      if (current?.job.id !== command.job || !admitting(current)) {
        return { state, effects: [] };
      }
      if (!command.run) return next({ ...state, current: undefined }, []);
      if (current.cancelled !== undefined) {
        // Cancelled while its admission ended: it never runs.
        return next({ ...state, current: undefined }, [{ type: 'drop', job: current.job }]);
      }
      return {
        state: { ...state, current: { ...current, phase: 'running' } },
        effects: [{ type: 'run', job: current.job }],
      };
    }
    case 'ended': {
      if (current?.job.id !== command.job || current.phase !== 'running') {
        return { state, effects: [] };
      }
      return { state: { ...state, current: { ...current, phase: 'sealing' } }, effects: [] };
    }
    case 'sealed': {
      if (current?.job.id !== command.job || admitting(current)) {
        return { state, effects: [] };
      }
      return next({ ...state, current: undefined }, []);
    }
    case 'close': {
      if (state.closed) return { state, effects: [] };
      const effects: Effect[] = state.queue.map((job) => ({ type: 'drop', job }));
      let closed: LifecycleState = { closed: true, current, queue: [] };
      // The interrupted turn an admission continues is the running one: it is cancelled too.
      if (current?.phase === 'recovering') {
        effects.push({ type: 'abort', job: current.job, reason: command.reason });
      }
      if (current !== undefined && current.phase !== 'sealing' && current.cancelled === undefined) {
        const cancel = transition(
          { ...closed },
          {
            type: 'cancel',
            target: current.job.id,
            reason: command.reason,
          },
        );
        closed = cancel.state;
        effects.push(...cancel.effects);
      }
      if (closed.current === undefined) effects.push({ type: 'idle' });
      return { state: closed, effects };
    }
  }
}
