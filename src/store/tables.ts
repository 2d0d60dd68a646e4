import { ChunklogError } from '../errors/chunklog-error.js';

/** The names of the store's tables. Every one is configurable. */
export interface StoreTableNames {
  /** One row per thread: id, timestamps, metadata and the next seq. */
  readonly threads: string;
  /** One row per stored chunk row, keyed by (thread id, seq). */
  readonly chunks: string;
  /** Kysely's migration bookkeeping table for the store's migrations. */
  readonly migrations: string;
  /** Kysely's migration lock table for the store's migrations. */
  readonly migrationLock: string;
  /** One row per turn stored since migration `0002`: its status, first seq and writer. */
  readonly turns: string;
  /** One row per thread whose lease was ever taken: the holder, when it expires, the fencing token. */
  readonly leases: string;
  /** One row per model step: its token usage, model id, finish reason and duration (migration 0003). */
  readonly usage: string;
  /**
   * History snapshots (migration 0004): a derived copy of a thread's older turns, grouped, that a
   * cold read of a long thread reads instead of their rows.
   */
  readonly snapshots: string;
  /**
   * History states (migration 0005): a thread's rows folded into messages at a seq, which a
   * whole-thread read starts from instead of the rows before that seq.
   */
  readonly historyStates: string;
}

/** Options naming the store's tables: a prefix, and any single name overridden. */
export interface StoreTableOptions {
  /** Prefix of every table name. Default `chunklog_`. */
  readonly tablePrefix?: string | undefined;
  /**
   * Explicit table names; each defaults to the prefix plus `threads`, `chunks`, `migrations`,
   * `migration_lock`, `turns`, `leases`, `usage`, `snapshots`, `history_states`.
   */
  readonly tables?: Partial<StoreTableNames> | undefined;
}

/** Identifiers we create: letters, digits and `_`, short enough for an index name on every database. */
const identifier = /^[A-Za-z_][A-Za-z0-9_]{0,47}$/;

/**
 * Resolves and checks the store's table names.
 *
 * @throws {ChunklogError} `invalid-option` for a name that is not a plain identifier of at most 48 characters
 */
export function resolveTableNames(options: StoreTableOptions): StoreTableNames {
  const prefix = options.tablePrefix ?? 'chunklog_';
  const names: StoreTableNames = {
    threads: options.tables?.threads ?? `${prefix}threads`,
    chunks: options.tables?.chunks ?? `${prefix}chunks`,
    migrations: options.tables?.migrations ?? `${prefix}migrations`,
    migrationLock: options.tables?.migrationLock ?? `${prefix}migration_lock`,
    turns: options.tables?.turns ?? `${prefix}turns`,
    leases: options.tables?.leases ?? `${prefix}leases`,
    usage: options.tables?.usage ?? `${prefix}usage`,
    snapshots: options.tables?.snapshots ?? `${prefix}snapshots`,
    historyStates: options.tables?.historyStates ?? `${prefix}history_states`,
  };
  for (const [key, name] of Object.entries(names)) {
    if (typeof name !== 'string' || !identifier.test(name)) {
      throw new ChunklogError(
        'invalid-option',
        `Table name ${JSON.stringify(name)} (${key}) must be letters, digits and _, starting with a letter or _, at most 48 characters.`,
        {
          option: options.tables?.[key as keyof StoreTableNames] ? `tables.${key}` : 'tablePrefix',
          value: name,
        },
      );
    }
  }
  if (new Set(Object.values(names)).size !== Object.keys(names).length) {
    throw new ChunklogError('invalid-option', 'The store needs distinct table names.', {
      option: 'tables',
      value: names,
    });
  }
  return names;
}

/** A `threads` row as the database holds it (drivers differ in how numbers and JSON come back). */
export interface ThreadRecord {
  id: string;
  created_at: number;
  updated_at: number;
  next_seq: number;
  metadata: unknown;
  /** The owner (resource) id the app gave the thread (migration 0003). */
  owner_id: string | null;
  /** The thread's title (migration 0003). */
  title: string | null;
  /** The thread a fork was forked from; null for a plain thread (migration 0006). */
  parent_id: string | null;
  /** A fork's path holds its parent's path up to this seq (migration 0006). */
  fork_seq: number | null;
  /** The stretches of other threads a fork's path reads, as JSON text (migration 0006). */
  fork_path: string | null;
  /** On an alternative: the conversation it belongs to; null otherwise (migration 0007). */
  conversation_id: string | null;
  /** On a conversation: the thread whose path is active; null for itself (migration 0007). */
  active_id: string | null;
  /** The key version a key rotation moved the thread to; null before one (migration 0009). */
  key_version: number | null;
}

/** A `chunks` row as the database holds it. */
export interface ChunkRecord {
  thread_id: string;
  seq: number;
  turn_id: string;
  step: number;
  role: string;
  type: string;
  data: unknown;
  created_at: number;
  version: number;
}

/** A `turns` row (migration `0002`): a turn's status and where its rows are. */
export interface TurnRecord {
  thread_id: string;
  turn_id: string;
  /** `running`, `completed`, `failed`, `cancelled` or `interrupted`. */
  status: string;
  /** The seq of the turn's first row. */
  first_seq: number;
  /** The seq after the turn's last row: where its next step goes while it runs. */
  next_seq: number;
  created_at: number;
  updated_at: number;
  /** The lease holder that began the turn, when it was begun under a lease. */
  holder: string | null;
}

/** A `leases` row (migration `0002`): who may write a thread's turns, until when. */
export interface LeaseRecord {
  thread_id: string;
  holder: string;
  /** Milliseconds since the epoch, on the store's clock; 0 when released. */
  expires_at: number;
  /** The fencing token: one more every time the lease changes hands. */
  token: number;
}

/** A `usage` row: one model step of a turn (migration 0003). */
export interface UsageRecord {
  thread_id: string;
  turn_id: string;
  step: number;
  model_id: string | null;
  finish_reason: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  reasoning_tokens: number | null;
  cache_read_tokens: number | null;
  cache_write_tokens: number | null;
  total_tokens: number | null;
  duration_ms: number | null;
  created_at: number;
}

/** A `snapshots` row (migration 0004): the grouped messages of a thread's rows `first_seq`…`last_seq`. */
export interface SnapshotRecord {
  thread_id: string;
  first_seq: number;
  last_seq: number;
  /** The turn id and creation time of row `last_seq`, checked against it on every read. */
  last_turn_id: string;
  last_created_at: number;
  /** The snapshot's JSON format (`SNAPSHOT_FORMAT`). */
  format: number;
  /** SHA-256 of the thread id, the seq range and `data`, in hex. */
  digest: string;
  /** The JSON text of the turn ids and grouped messages. */
  data: string;
  created_at: number;
}

/** A `history_states` row (migration 0005): one part of a thread's history state at a seq. */
export interface HistoryStateRecord {
  thread_id: string;
  /** The seq of the last row the state folds in. */
  at_seq: number;
  /** The part's number, from 0, and how many parts the state has. */
  part: number;
  parts: number;
  /** The state's JSON format (`MESSAGE_FOLD_FORMAT`). */
  format: number;
  /** SHA-256 of the thread id, the seq and the whole JSON, in hex. */
  digest: string;
  /** This part of the state's JSON text. */
  data: string;
  created_at: number;
}

/**
 * The store's tables under fixed logical names. Queries name the real tables through
 * {@link StoreTableNames}, cast to these keys, and never qualify a column with a table name.
 */
export type StoreTables = {
  threads: ThreadRecord;
  chunks: ChunkRecord;
  turns: TurnRecord;
  leases: LeaseRecord;
  usage: UsageRecord;
  snapshots: SnapshotRecord;
  historyStates: HistoryStateRecord;
};
