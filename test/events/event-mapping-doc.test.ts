// docs/event-mapping.md lists every stream part type, and names as "no event" exactly the
// types toChunkEvents maps to nothing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_EVENT_PART_TYPES, STREAM_PART_TYPES } from '../../src/events/index.js';

const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'event-mapping.md'), 'utf8');
const rows = new Map(
  [...doc.matchAll(/^\| `([a-z-]+)` +\| (.+?) +\|/gm)].map((m) => [m[1] as string, m[2] as string]),
);

describe('docs/event-mapping.md', () => {
  it('has one row per stream part type', () => {
    expect([...rows.keys()].sort()).toEqual([...STREAM_PART_TYPES].sort());
  });

  it('documents the part types that map to no event', () => {
    const none = [...rows].filter(([, event]) => event.trim() === '—').map(([type]) => type);
    expect(none.sort()).toEqual([...NO_EVENT_PART_TYPES].sort());
  });
});
