import { requireMethods } from '../errors/invalid-option.js';
import { listingEvery } from '../schema/listing-every.js';
import type { Relay } from './relay.js';

/** The methods a relay may leave out (a relay written before they were added works without). */
type OptionalMethod = 'lastEventId';

/** Every required method of `Relay`: a method added to the interface and not here fails to compile. */
const METHODS = listingEvery<Exclude<keyof Relay, OptionalMethod>>()([
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
 * Checks a `relay` option: undefined, or an object with every method of {@link Relay} (or of
 * those its caller uses).
 *
 * @param relay - the option's value
 * @param where - the function it was given to
 * @param methods - the methods it must have; default every method of `Relay`
 * @returns the relay
 */
export function checkRelay<K extends keyof Relay = keyof Relay>(
  relay: unknown,
  where = 'createAgentSession',
  methods: readonly K[] = METHODS as readonly (keyof Relay)[] as readonly K[],
): Pick<Relay, K> | undefined {
  if (relay === undefined) return undefined;
  requireMethods(
    where,
    'relay',
    relay,
    methods,
    'a Relay (createRedisRelay, createPostgresRelay, createInProcessRelay)',
  );
  return relay as Pick<Relay, K>;
}
