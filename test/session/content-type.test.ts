// The handlers read JSON bodies as UTF-8 JSON and refuse, with a 415, a body announced as
// anything else — another charset or a JSON-like media type that is not JSON — rather than
// decoding it as something it is not. No turn starts for a refused body.
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession, createChunkHandlers } from '../../src/entries/session.js';
import { isJsonMediaType } from '../../src/http/media-type.js';
import { createChunkStore } from '../../src/store/index.js';
import { createScriptedModel, parseScript } from '../../src/testing/index.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe('JSON bodies', () => {
  it('accept application/json and +json types in UTF-8 only', () => {
    for (const type of [
      'application/json',
      'Application/JSON',
      'application/json; charset=utf-8',
      'application/json;charset="UTF-8"',
      'application/json; charset=utf8; boundary=x',
      'application/merge-patch+json',
      'application/vnd.api+json; charset=utf-8',
    ]) {
      expect(isJsonMediaType(type), type).toBe(true);
    }
    for (const type of [
      null,
      '',
      'text/plain',
      'application/json-seq',
      'application/jsonl',
      'application/json5',
      'application/x-json-stream',
      'application/json; charset=utf-16',
      'application/json; charset=UTF-16LE',
      'application/json; charset=iso-8859-1',
      'application/json; charset=',
      'application/json+xml',
      'text/json',
    ]) {
      expect(isJsonMediaType(type), String(type)).toBe(false);
    }
  });

  it('a message announced as UTF-16 or json-seq is refused with 415 and starts no turn', async () => {
    const store = createChunkStore({ sqlite: ':memory:' });
    await store.migrate();
    closers.push(() => store.close());
    const model = createScriptedModel(parseScript('text ok'));
    const session = createAgentSession({ store, threadId: 'th', model });
    closers.push(() => session.close());
    const handlers = createChunkHandlers({ store, session, authorize: () => true });
    const post = (type: string, body: BodyInit) =>
      handlers.fetch(
        new Request('http://x/threads/th/messages', {
          method: 'POST',
          headers: { 'content-type': type },
          body,
        }),
      );
    const utf16 = new Uint8Array([...'{"text":"hi"}'].flatMap((c) => [c.charCodeAt(0), 0]));
    for (const [type, body] of [
      ['application/json; charset=utf-16', utf16],
      ['application/json; charset=utf-16', '{"text":"hi"}'],
      ['application/json-seq', '\u001e{"text":"hi"}\n'],
      ['application/json-seq', '{"text":"hi"}'],
    ] as const) {
      const response = await post(type, body);
      expect(response.status, type).toBe(415);
      expect(await response.json()).toMatchObject({ error: { code: 'unsupported-media-type' } });
    }
    await session.idle();
    expect(model.calls).toHaveLength(0);
    const accepted = await post('application/json; charset=utf-8', '{"text":"hi"}');
    expect(accepted.status).toBe(202);
  });
});
