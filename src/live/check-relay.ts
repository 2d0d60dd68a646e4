import { ChunklogError } from '../errors/index.js';
import type { Relay } from './relay.js';

const METHODS = [
  'publish',
  'follow',
  'lastIndex',
  'runningTurn',
  'control',
  'serveControl',
  'forget',
  'close',
] as const satisfies readonly (keyof Relay)[];
/** Every method of `Relay` is checked: a method added to the interface fails to compile here. */
const EVERY_METHOD: Exclude<keyof Relay, (typeof METHODS)[number]> extends never ? true : never =
  true;
void EVERY_METHOD;

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
