// chunklog validates with zod/mini, which, unlike classic zod, installs no messages: a browser
// bundle of the window (no classic zod in it) must still word its errors in English, and an app
// that configured zod's messages itself must get its own.
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { parseChunkEvent, parseChunkPage } from '../../src/schema/index.js';
import { thrown } from '../support/chunklog-error.js';

// The test process loads classic zod, which installed its English messages globally.
const configured = { ...z.config() };
afterEach(() => {
  z.config({ customError: configured.customError, localeError: configured.localeError });
});

const badEvent = () => thrown(() => parseChunkEvent({ type: 'text-delta', text: 5 }));
const badPage = () =>
  thrown(() => parseChunkPage({ chunks: [], total: -1, oldestSeq: null, hasMore: false }));

describe("the messages of chunklog's validation errors", () => {
  it('are the English ones of classic zod when no messages are configured (no classic zod)', () => {
    const withClassic = [badEvent().message, badPage().message];
    expect(withClassic[0]).toContain('expected string, received number');
    expect(withClassic[1]).toContain('expected number to be >=0');
    z.config({ customError: undefined, localeError: undefined });
    expect([badEvent().message, badPage().message]).toEqual(withClassic);
  });

  it("are the app's own when it configured zod's messages", () => {
    z.config({ customError: (issue) => `app words for ${issue.code}` });
    expect(badEvent().message).toContain('app words for invalid_type');
    z.config({ customError: undefined, localeError: () => 'app locale' });
    expect(badEvent().message).toContain('app locale');
  });
});
