// The session's lifecycle (src/session/lifecycle.ts) against a deliberately simple model: a FIFO
// of job ids with front insertions, the one job holding the thread and its phase, and what has
// ended. Random sequences of every command — enqueue (back or front), cancel (the current job,
// or any job by id), an interrupted turn the admission continues starting and ending, the ends of
// admission, of the model run and of the write, close — are applied to both; the states must
// agree, and the effects must be the ones the model expects.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Command,
  type Effect,
  INITIAL_LIFECYCLE,
  type Job,
  type LifecycleState,
  transition,
} from '../../src/session/lifecycle.js';

type Phase = 'admitting' | 'recovering' | 'running' | 'sealing';

/** The model: plain data, updated in the obvious way. */
interface Model {
  queue: number[];
  current: { id: number; phase: Phase; cancelled: boolean } | undefined;
  closed: boolean;
  /** How each job ended, once it did. */
  ended: Map<number, 'dropped' | 'skipped' | 'sealed'>;
  /** Jobs admitted (given an `admit` effect) and run (given a `run` effect). */
  admitted: Set<number>;
  run: Set<number>;
}

type Step =
  | { readonly kind: 'enqueue'; readonly front: boolean }
  | { readonly kind: 'cancel-current' }
  | { readonly kind: 'cancel-job'; readonly pick: number }
  | { readonly kind: 'recovery'; readonly running: boolean }
  | { readonly kind: 'admitted'; readonly run: boolean }
  | { readonly kind: 'ended' }
  | { readonly kind: 'sealed' }
  | { readonly kind: 'late'; readonly pick: number }
  | { readonly kind: 'close' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.boolean().map((front) => ({ kind: 'enqueue' as const, front })) },
  { weight: 2, arbitrary: fc.constant({ kind: 'cancel-current' as const }) },
  { weight: 2, arbitrary: fc.nat(20).map((pick) => ({ kind: 'cancel-job' as const, pick })) },
  { weight: 2, arbitrary: fc.boolean().map((running) => ({ kind: 'recovery' as const, running })) },
  { weight: 4, arbitrary: fc.boolean().map((run) => ({ kind: 'admitted' as const, run })) },
  { weight: 3, arbitrary: fc.constant({ kind: 'ended' as const }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'sealed' as const }) },
  // An answer about a job that is not current (late, or made up): it must change nothing.
  { weight: 1, arbitrary: fc.nat(20).map((pick) => ({ kind: 'late' as const, pick })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'close' as const }) },
);

/** The model's view of the real state, to compare. */
function view(state: LifecycleState) {
  return {
    queue: state.queue.map((job) => job.id),
    current:
      state.current === undefined
        ? undefined
        : {
            id: state.current.job.id,
            phase: state.current.phase,
            cancelled: state.current.cancelled !== undefined,
          },
    closed: state.closed,
  };
}

/** Starts the next job in the model when the thread is free; the effects that means. */
function modelNext(m: Model, expected: string[]): void {
  if (m.current !== undefined) return;
  const next = m.closed ? undefined : m.queue.shift();
  if (m.closed) {
    for (const id of m.queue) m.ended.set(id, 'dropped');
    m.queue = [];
  }
  if (next === undefined) {
    expected.push('idle');
    return;
  }
  m.current = { id: next, phase: 'admitting', cancelled: false };
  m.admitted.add(next);
  expected.push(`admit ${next}`);
}

describe('the session lifecycle', () => {
  it('agrees with a FIFO model: one job at a time, each admitted once, run at most once, ended exactly once; a cancel stops what it reaches (while an admission continues an interrupted turn, that turn); close drops the rest', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 60 }), (steps) => {
        let state = INITIAL_LIFECYCLE;
        const m: Model = {
          queue: [],
          current: undefined,
          closed: false,
          ended: new Map(),
          admitted: new Set(),
          run: new Set(),
        };
        let nextId = 1;
        const ids: number[] = [];
        const apply = (command: Command): { effects: readonly Effect[]; hit: Job | undefined } => {
          const next = transition(state, command);
          // Pure: the state before is untouched.
          state = next.state;
          return { effects: next.effects, hit: next.hit };
        };
        const names = (effects: readonly Effect[]) =>
          effects.map((e) => (e.type === 'idle' ? 'idle' : `${e.type} ${e.job.id}`));
        for (const step of steps) {
          const expected: string[] = [];
          let result: { effects: readonly Effect[]; hit: Job | undefined };
          switch (step.kind) {
            case 'enqueue': {
              const job: Job = { id: nextId++, kind: 'turn', turnId: `t${nextId}` };
              ids.push(job.id);
              result = apply({ type: 'enqueue', job, front: step.front });
              if (m.closed) {
                m.ended.set(job.id, 'dropped');
                expected.push(`drop ${job.id}`);
              } else {
                if (step.front) m.queue.unshift(job.id);
                else m.queue.push(job.id);
                modelNext(m, expected);
              }
              break;
            }
            case 'cancel-current':
            case 'cancel-job': {
              const target =
                step.kind === 'cancel-current'
                  ? 'current'
                  : (ids[step.pick % Math.max(ids.length, 1)] ?? 0);
              result = apply({ type: 'cancel', target, reason: 'stop' });
              const waiting = target === 'current' ? -1 : m.queue.indexOf(target);
              if (waiting !== -1) {
                m.queue.splice(waiting, 1);
                m.ended.set(target as number, 'dropped');
                expected.push(`drop ${target}`);
                expect(result.hit?.id).toBe(target);
              } else if (m.current?.phase === 'recovering' && target === 'current') {
                // The running turn is the one the admission continues: it is aborted, and the
                // job it was admitted for is not cancelled.
                expect(result.hit?.id).toBe(m.current.id);
                expected.push(`abort ${m.current.id}`);
              } else if (
                m.current !== undefined &&
                (target === 'current' || target === m.current.id) &&
                m.current.phase !== 'sealing'
              ) {
                expect(result.hit?.id).toBe(m.current.id);
                if (!m.current.cancelled) {
                  m.current.cancelled = true;
                  expected.push(
                    m.current.phase === 'running'
                      ? `abort ${m.current.id}`
                      : `stop-admission ${m.current.id}`,
                  );
                }
              } else {
                expect(result.hit).toBeUndefined();
              }
              break;
            }
            case 'recovery': {
              const id = m.current?.id ?? 0;
              result = apply({ type: 'recovery', job: id, running: step.running });
              const from = step.running ? 'admitting' : 'recovering';
              if (m.current?.phase === from) {
                m.current.phase = step.running ? 'recovering' : 'admitting';
              }
              break;
            }
            case 'admitted': {
              const id = m.current?.id ?? 0;
              result = apply({ type: 'admitted', job: id, run: step.run });
              if (m.current?.phase === 'admitting' || m.current?.phase === 'recovering') {
                if (!step.run) {
                  m.ended.set(id, 'skipped');
                  m.current = undefined;
                  modelNext(m, expected);
                } else if (m.current.cancelled) {
                  m.ended.set(id, 'dropped');
                  expected.push(`drop ${id}`);
                  m.current = undefined;
                  modelNext(m, expected);
                } else {
                  m.current.phase = 'running';
                  m.run.add(id);
                  expected.push(`run ${id}`);
                }
              }
              break;
            }
            case 'ended': {
              const id = m.current?.id ?? 0;
              result = apply({ type: 'ended', job: id });
              if (m.current?.phase === 'running') m.current.phase = 'sealing';
              break;
            }
            case 'sealed': {
              const id = m.current?.id ?? 0;
              result = apply({ type: 'sealed', job: id });
              if (
                m.current !== undefined &&
                m.current.phase !== 'admitting' &&
                m.current.phase !== 'recovering'
              ) {
                m.ended.set(id, 'sealed');
                m.current = undefined;
                modelNext(m, expected);
              }
              break;
            }
            case 'late': {
              const id = ids[step.pick % Math.max(ids.length, 1)] ?? 0;
              if (id === m.current?.id) continue;
              for (const type of ['admitted', 'recovery', 'ended', 'sealed'] as const) {
                const before = state;
                const late =
                  type === 'admitted'
                    ? transition(state, { type, job: id, run: true })
                    : type === 'recovery'
                      ? transition(state, { type, job: id, running: true })
                      : transition(state, { type, job: id });
                expect(late.state).toBe(before);
                expect(late.effects).toEqual([]);
              }
              continue;
            }
            case 'close': {
              result = apply({ type: 'close', reason: 'closed' });
              if (!m.closed) {
                m.closed = true;
                for (const id of m.queue) {
                  m.ended.set(id, 'dropped');
                  expected.push(`drop ${id}`);
                }
                m.queue = [];
                const current = m.current;
                // A continued interrupted turn is cancelled, and the job it was admitted for.
                if (current?.phase === 'recovering') expected.push(`abort ${current.id}`);
                if (current !== undefined && current.phase !== 'sealing' && !current.cancelled) {
                  current.cancelled = true;
                  expected.push(
                    current.phase === 'running'
                      ? `abort ${current.id}`
                      : `stop-admission ${current.id}`,
                  );
                }
                if (current === undefined) expected.push('idle');
              }
              break;
            }
          }
          expect(names(result.effects)).toEqual(expected);
          expect(view(state)).toEqual({
            queue: m.queue,
            current: m.current === undefined ? undefined : { ...m.current },
            closed: m.closed,
          });
          // Never two jobs holding the thread; never a job both waiting and current or ended.
          if (m.current !== undefined) {
            expect(m.queue).not.toContain(m.current.id);
            expect(m.ended.has(m.current.id)).toBe(false);
          }
          for (const id of m.queue) expect(m.ended.has(id)).toBe(false);
          // A job runs only once admitted.
          for (const id of m.run) expect(m.admitted.has(id)).toBe(true);
        }
        // Every job is waiting, current, or ended exactly once (a Map holds one end per job).
        for (const id of ids) {
          const places =
            Number(m.queue.includes(id)) + Number(m.current?.id === id) + Number(m.ended.has(id));
          expect(places).toBe(1);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('never changes the state it is given', () => {
    const job: Job = { id: 1, kind: 'turn', turnId: 't1' };
    const before = transition(INITIAL_LIFECYCLE, { type: 'enqueue', job, front: false }).state;
    const frozen = JSON.stringify(before);
    transition(before, { type: 'cancel', target: 'current', reason: 'x' });
    transition(before, { type: 'admitted', job: 1, run: true });
    transition(before, { type: 'close', reason: 'x' });
    expect(JSON.stringify(before)).toBe(frozen);
    expect(JSON.stringify(INITIAL_LIFECYCLE)).toBe(
      JSON.stringify({ closed: false, current: undefined, queue: [] }),
    );
  });
});
