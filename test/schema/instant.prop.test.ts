// The one rule for a time given as text (appendTurn's createdAt, expire's before, an import's
// times): an ISO 8601 date-time with a zone, on a day that exists.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoInstantMillis } from '../../src/schema/instant.js';

const dates = fc.date({
  min: new Date('1970-01-01T00:00:00.000Z'),
  max: new Date('9998-12-31T23:59:59.999Z'), // a day's offset stays a four-digit year
  noInvalidDate: true,
});

/** `date` written at a zone offset of `minutes` (east positive), as `±HH:MM`. */
function atOffset(date: Date, minutes: number): string {
  const local = new Date(date.getTime() + minutes * 60_000).toISOString().slice(0, 23);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}${sign}${hh}:${mm}`;
}

describe('isoInstantMillis', () => {
  it('reads every instant back as the milliseconds it was written from, in UTC or at any offset', () => {
    fc.assert(
      fc.property(dates, fc.integer({ min: -14 * 60, max: 14 * 60 }), (date, offset) => {
        expect(isoInstantMillis(date.toISOString())).toBe(date.getTime());
        expect(isoInstantMillis(atOffset(date, offset))).toBe(date.getTime());
      }),
    );
  });

  it('refuses every date-time without a zone, and every date alone', () => {
    fc.assert(
      fc.property(dates, (date) => {
        const iso = date.toISOString();
        expect(isoInstantMillis(iso.slice(0, -1))).toBeUndefined();
        expect(isoInstantMillis(iso.slice(0, 10))).toBeUndefined();
      }),
    );
  });

  it('refuses days, hours and offsets that do not exist, which Date.parse would roll over', () => {
    for (const text of [
      '2026-02-29T00:00:00Z',
      '2026-02-30T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-00-10T00:00:00Z',
      '2026-01-00T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T12:60:00Z',
      '2026-01-01T12:00:60Z',
      '2026-01-01T12:00:00+24:00',
      '2026-01-01T12:00:00+02:60',
      '2026-01-01 12:00:00Z',
      ' 2026-01-01T12:00:00Z',
      '2026-01-01T12:00:00z',
    ]) {
      expect(isoInstantMillis(text), text).toBeUndefined();
    }
    expect(isoInstantMillis('2024-02-29T00:00:00Z')).toBe(Date.UTC(2024, 1, 29));
    expect(isoInstantMillis('2026-11-30T12:00Z')).toBe(Date.UTC(2026, 10, 30, 12));
    expect(isoInstantMillis('2026-11-30T12:00:00-05:30')).toBe(Date.UTC(2026, 10, 30, 17, 30));
  });
});
