/**
 * `chunklog/relay`: carries a running turn's events and control messages between the processes
 * of an app (several instances behind a load balancer, serverless functions, rolling deploys).
 * Give the same relay to every session (`createAgentSession({ relay })`) and to the handlers
 * (`createChunkHandlers({ relay })`); any instance then streams, resumes, cancels and steers any
 * thread's turn. Node only: `chunklog` and `chunklog/window` know nothing of it.
 *
 * @packageDocumentation
 */

export {
  createInProcessRelay,
  type InProcessRelay,
  type InProcessRelayOptions,
} from '../live/in-process-relay.js';
export type {
  ControlAnswer,
  ControlHandler,
  ControlMessage,
  Relay,
  RelayFollowOptions,
  RelayRead,
} from '../live/relay.js';
export {
  createPostgresRelay,
  type PgClientLike,
  type PgPoolClientLike,
  type PgPoolLike,
  type PgResultLike,
  type PostgresRelay,
  type PostgresRelayOptions,
} from './postgres-relay.js';
export {
  createRedisRelay,
  type RedisClientLike,
  type RedisRelayOptions,
  type RedisSubscriberLike,
} from './redis-relay.js';
