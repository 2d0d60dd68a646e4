/**
 * The default id generator of a session: time-ordered (so turn ids sort by start time) and
 * random enough to never collide across processes: 10 base-36 digits of the clock, then 12
 * random ones.
 *
 * @param now - the clock in milliseconds
 * @returns a function that makes a new id on each call
 */
export function createTimeOrderedIds(now: () => number): () => string {
  let last = 0;
  let counter = 0;
  return () => {
    const time = Math.max(0, Math.floor(now()));
    counter = time === last ? counter + 1 : 0;
    last = time;
    const random = crypto.getRandomValues(new Uint32Array(2));
    const tail = `${(random[0] as number).toString(36)}${(random[1] as number).toString(36)}`;
    return `${time.toString(36).padStart(10, '0')}${counter.toString(36).padStart(2, '0')}${tail.padEnd(12, '0').slice(0, 12)}`;
  };
}
