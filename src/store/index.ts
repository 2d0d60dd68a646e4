/**
 * chunklog/store: a thread's chunk log on Kysely — embedded SQLite (better-sqlite3) by default,
 * PostgreSQL (`pg`) and MySQL/MariaDB (`mysql2`) for scale. See `docs/store.md`.
 *
 * @packageDocumentation
 */

export { ROW_FORMAT_VERSION } from './codec.js';
export {
  type ChunkStoreOptions,
  type ChunkStoreTarget,
  createChunkStore,
} from './create-chunk-store.js';
export type { StoreDialectName } from './dialects/adapter.js';
export {
  createFileKeyProvider,
  type FileKeyProviderOptions,
} from './encryption/file-provider.js';
export type {
  StoreEncryptionOptions,
  ThreadKey,
  ThreadKeyProvider,
} from './encryption/key-provider.js';
export { createMemoryKeyProvider, type MemoryKeyProvider } from './encryption/memory-provider.js';
export { type StoreMigrationOptions, storeMigrations } from './migrations.js';
export type { MysqlTarget } from './mysql-pool.js';
export type { SqliteOpenOptions } from './open-sqlite.js';
export {
  guardPgPool,
  type PgClientEvents,
  type PgPoolEvents,
  type PostgresTarget,
} from './pg-pool.js';
export type { StoreTableNames, StoreTableOptions } from './tables.js';
export {
  type AcquireLeaseResult,
  type AppendStepsOptions,
  type BeginTurnOptions,
  type BeginTurnResult,
  type ChunkStoreTurns,
  type EndedTurnStatus,
  type FindInterruptedTurnsOptions,
  type Lease,
  type LeaseFence,
  type LeaseOptions,
  type ListTurnsOptions,
  type SetTurnStatusOptions,
  TURN_STATUSES,
  type TurnInfo,
  type TurnStatus,
} from './turn-types.js';
export type {
  AddAlternativeOptions,
  Alternative,
  Alternatives,
  AppendTurnOptions,
  BranchPoint,
  ChunkPage,
  ChunkStore,
  ConversationVersion,
  CorruptRowPolicy,
  CreateThreadOptions,
  ExpireOptions,
  ExpireResult,
  ForkThreadOptions,
  ForwardChunkPage,
  GetChunksAfterOptions,
  GetChunksOptions,
  GetRowsOptions,
  HistoryRead,
  ListThreadsOptions,
  ReadOptions,
  RotateKeyOptions,
  RotateKeyResult,
  SkippedThread,
  Thread,
  ThreadFork,
  ThreadPage,
  ThreadStart,
  UpdateThreadOptions,
} from './types.js';
export type {
  PriceFunction,
  StepUsage,
  ThreadUsage,
  TurnUsage,
  UsageReadOptions,
} from './usage-types.js';
export { DEFAULT_PAGE_LIMIT, MAX_ID_BYTES, MAX_PAGE_LIMIT } from './validate.js';
