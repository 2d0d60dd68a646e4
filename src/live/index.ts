// The live layer's exports: what sessions, relays and the HTTP handlers share about a running
// turn's events (their ids, replay, fan-out, the relay interface, SSE framing).
export { isAbortSignal } from './abort-signal.js';
export { checkRelay } from './check-relay.js';
export { EventHub } from './event-hub.js';
export type { EventMeta, Replay, SessionListener } from './event-meta.js';
export type {
  ControlAnswer,
  ControlHandler,
  ControlMessage,
  Relay,
  RelayFollowOptions,
  RelayRead,
} from './relay.js';
export { parseEventId, ReplayBuffer } from './replay-buffer.js';
export { formatSse } from './sse-format.js';
