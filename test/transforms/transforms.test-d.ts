import { describe, expectTypeOf, it } from 'vitest';
import type { ChatMessage, ChunkRow, ChunkRowDraft, SystemEvent } from '../../src/index.js';
import {
  explodeTurn,
  type GroupableRow,
  groupRowsToMessages,
  mergeRowsBySeq,
  routeSystemEvent,
} from '../../src/index.js';

describe('transforms types', () => {
  it('explodeTurn gives drafts; groupRowsToMessages takes rows, drafts and live entries', () => {
    expectTypeOf(explodeTurn('t', [], { role: 'assistant' })).toEqualTypeOf<ChunkRowDraft[]>();
    expectTypeOf<ChunkRow>().toExtend<GroupableRow>();
    expectTypeOf<ChunkRowDraft>().toExtend<GroupableRow>();
    const live = explodeTurn('t', [], { role: 'assistant' }).map((d, i) => ({
      ...d,
      id: `t:${i}`,
      seq: null,
      live: true,
    }));
    expectTypeOf(groupRowsToMessages(live)).toEqualTypeOf<ChatMessage[]>();
    // @ts-expect-error a turn's role is user, assistant or system
    explodeTurn('t', [], { role: 'tool' });
  });

  it('mergeRowsBySeq keeps the row type of its pages', () => {
    type Tagged = ChunkRow & { readonly fromPage: number };
    expectTypeOf(mergeRowsBySeq<Tagged>([], [])).toEqualTypeOf<Tagged[]>();
  });

  it('routeSystemEvent needs inFlightTurnId and returns messages', () => {
    const event: SystemEvent = { type: 'system', kind: 'notice', text: 'x' };
    expectTypeOf(
      routeSystemEvent([], event, { inFlightTurnId: null, newTurnId: 's' }),
    ).toEqualTypeOf<ChatMessage[]>();
    // @ts-expect-error inFlightTurnId is required (null when no turn runs)
    routeSystemEvent([], event, { newTurnId: 's' });
  });
});
