// A model of an older specification (a provider package made for an older `ai`, which npm picks
// on Node 20 when no major is asked for) passed with fallbacks: a clear invalid-option error that
// names the model and what to install. The type error is in session.test-d.ts.
import { describe, expect, it } from 'vitest';
import { createAgentSession } from '../../src/entries/session.js';
import { createChunkStore } from '../../src/store/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { thrown } from '../support/chunklog-error.js';

/** What `anthropic('claude-haiku-4-5')` of @ai-sdk/anthropic@3 looks like to the session. */
const v3Model = {
  specificationVersion: 'v3',
  provider: 'anthropic.messages',
  modelId: 'claude-haiku-4-5',
  supportedUrls: {},
  doGenerate: async () => ({}),
  doStream: async () => ({}),
};

describe('createAgentSession with a model of an older specification', () => {
  const store = createChunkStore({ sqlite: ':memory:' });
  const v4 = createScriptedModel([{ parts: [{ type: 'text', text: 'ok' }] }]);

  it('names the fallback, its version and the major to install', () => {
    const error = thrown(() =>
      createAgentSession({
        store,
        threadId: 't',
        model: v4,
        fallbackModels: [v3Model as never],
      }),
    );
    expect(error.code).toBe('invalid-option');
    expect(error.option).toBe('fallbackModels[0]');
    expect(error.message).toContain('anthropic.messages claude-haiku-4-5 is a v3 model');
    expect(error.message).toContain('npm install @ai-sdk/anthropic@^4');
  });

  it('names the main model the same way, and a gateway id for what it is', () => {
    const v3Main = thrown(() =>
      createAgentSession({ store, threadId: 't', model: v3Model as never, fallbackModels: [v4] }),
    );
    expect(v3Main.option).toBe('model');
    expect(v3Main.message).toContain('is a v3 model');
    const gateway = thrown(() =>
      createAgentSession({
        store,
        threadId: 't',
        model: 'anthropic/claude-sonnet-4.5',
        fallbackModels: [v4],
      }),
    );
    expect(gateway.message).toContain('"anthropic/claude-sonnet-4.5" is a gateway model id');
  });

  it('takes a v3 model without fallbacks (the AI SDK adapts it)', () => {
    const session = createAgentSession({ store, threadId: 't', model: v3Model as never });
    expect(session.threadId).toBe('t');
    void session.close();
  });
});
