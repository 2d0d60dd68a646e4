import type { ChunkStore } from '../store/types.js';

/**
 * What a session needs of a store: a `Pick` of {@link ChunkStore}, so every `ChunkStore` fits and
 * a store of your own implements these methods (the conformance kit, `describeChunkStore` from
 * `chunklog/testing`, checks them). It writes turns (whole, or step by step), reads the thread's
 * history and what changed since, the turns it recovers or finds stored, their usage, and the
 * thread's lease.
 *
 * @example
 * ```ts
 * const store: SessionStore = createChunkStore({ sqlite: 'chat.db' });
 * ```
 */
export type SessionStore = Pick<
  ChunkStore,
  | 'appendTurn'
  | 'beginTurn'
  | 'appendSteps'
  | 'getHistory'
  | 'getChunksAfter'
  | 'getTurn'
  | 'getTurnInfo'
  | 'listTurns'
  | 'getTurnUsage'
  | 'acquireLease'
  | 'renewLease'
  | 'releaseLease'
> & {
  /** The store's dialect (`ChunkStore.dialect`): a session holds the thread's lease by default off SQLite. */
  readonly dialect?: ChunkStore['dialect'] | undefined;
  /**
   * `ChunkStore.activePath`: the path of the conversation each turn reads and writes, resolved
   * when the turn is admitted. Without it, the session reads and writes the thread itself.
   */
  readonly activePath?: ChunkStore['activePath'] | undefined;
  /** `ChunkStore.addAlternative`: what `session.edit` and `session.regenerate` need. */
  readonly addAlternative?: ChunkStore['addAlternative'] | undefined;
  /**
   * `ChunkStore.switchAlternative`: an edit or regenerate cancelled after its alternative was made
   * makes the path it replaced active again.
   */
  readonly switchAlternative?: ChunkStore['switchAlternative'] | undefined;
};

/** The methods a store must have to be a {@link SessionStore}. */
export const SESSION_STORE_METHODS: readonly (keyof SessionStore)[] = [
  'appendTurn',
  'beginTurn',
  'appendSteps',
  'getHistory',
  'getChunksAfter',
  'getTurn',
  'getTurnInfo',
  'listTurns',
  'getTurnUsage',
  'acquireLease',
  'renewLease',
  'releaseLease',
];

/**
 * What `durability: 'step'` needs of a store: since the session's store is a `Pick` of
 * `ChunkStore` with `beginTurn` and `appendSteps`, the same as {@link SessionStore} (the name is
 * kept for code written against it).
 *
 * @example
 * ```ts
 * const store: StepDurableStore = createChunkStore({ sqlite: 'chat.db' });
 * ```
 */
export type StepDurableStore = SessionStore;
