import { ChunklogError } from '../errors/index.js';
import { listingEvery } from '../schema/listing-every.js';
import type { Relay } from './relay.js';

/** Every method of `Relay`: a method added to the interface and not here fails to compile. */
const METHODS = listingEvery<keyof Relay>()([
  'publish',
  'follow',
  'lastIndex',
  'runningTurn',
  'control',
  'serveControl',
  'forget',
  'close',
]);

/**
 * Checks a `relay` option: undefined, or an object with every method of {@link Relay}.
 *
 * @param relay - the option's value
 * @param where - the function it was given to
 * @returns the relay
 */
export function checkRelay(relay: unknown, where = 'createAgentSession'): Relay | undefined {
  if (relay === undefined) return undefined;
  const missing =
    typeof relay !== 'object' || relay === null
      ? 'publish'
      : METHODS.find((m) => typeof (relay as Record<string, unknown>)[m] !== 'function');
  if (missing !== undefined) {
    throw new ChunklogError(
      'invalid-option',
      `${where}: \`relay\` must be a Relay (createRedisRelay, createPostgresRelay, createInProcessRelay); \`${missing}\` is missing`,
      { option: 'relay', value: relay },
    );
  }
  return relay as Relay;
}
