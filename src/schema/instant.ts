// The one rule for a point in time given as text, wherever one crosses into chunklog: an
// appended turn's `createdAt`, `expire`'s `before`, the times of an imported thread. A string
// without a time zone would be read in the server's local time, and `Date.parse` rolls a day that
// does not exist (February 30th) into the next month: both are refused, not guessed at.

/** `YYYY-MM-DDTHH:MM`, optional seconds and fraction, then `Z` or an offset `±HH:MM`. */
const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

/** An example of an accepted instant, for error messages. */
export const INSTANT_EXAMPLE = '2026-11-30T12:00:00.000Z';

/**
 * The milliseconds since the epoch of an ISO 8601 date-time with a time zone (`Z` or an offset
 * such as `+02:00`), or undefined when `text` is anything else: a date alone, a time without a
 * zone, or a day, hour or offset out of range.
 *
 * @example
 * ```ts
 * isoInstantMillis('2026-11-30T12:00:00Z'); // 1795953600000
 * isoInstantMillis('2026-11-30T12:00:00'); // undefined (no time zone)
 * isoInstantMillis('2026-02-30T12:00:00Z'); // undefined (no such day)
 * ```
 */
export function isoInstantMillis(text: string): number | undefined {
  const match = ISO_INSTANT.exec(text);
  if (match === null) return undefined;
  const fields = match.slice(1).map((group) => Number(group ?? 0));
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, offH = 0, offM = 0] =
    fields;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const inRange =
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offH <= 23 &&
    offM <= 59;
  if (!inRange) return undefined;
  const millis = Date.parse(text);
  return Number.isFinite(millis) ? millis : undefined;
}
