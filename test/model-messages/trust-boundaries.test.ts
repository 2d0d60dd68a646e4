// The model-input builder validates the messages it is given (a history may be read from
// anywhere) and the model messages it marks for caching.
import { describe, expect, it } from 'vitest';
import {
  anthropicCachedSystem,
  applyAnthropicCaching,
  toModelMessages,
} from '../../src/model-messages/index.js';
import type { ChatMessage } from '../../src/schema/index.js';
import { thrown } from '../support/chunklog-error.js';

const user: ChatMessage = {
  id: 't1:user',
  turnId: 't1',
  role: 'user',
  chunks: [{ type: 'text', step: 0, text: 'hi' }],
};

describe('model input trust boundaries', () => {
  it('toModelMessages names the malformed message, chunk and field', () => {
    const assistant = {
      id: 't1:assistant',
      turnId: 't1',
      role: 'assistant',
      chunks: [{ type: 'tool-batch', step: 0, calls: [{ id: 'c1', name: 7 }] }],
    };
    const error = thrown(() => toModelMessages([user, assistant] as never));
    expect(error.code).toBe('invalid-message');
    expect(error.path).toEqual([1, 'chunks', 0, 'calls', 0, 'name']);
    expect(error.message).toMatch(
      /^toModelMessages: invalid chat message at messages\[1\]\.chunks\[0\]/,
    );
    expect(thrown(() => toModelMessages([{ ...user, chunks: undefined }] as never)).path).toEqual([
      0,
      'chunks',
    ]);
    expect(thrown(() => toModelMessages([{ ...user, turnId: '' }] as never)).path).toEqual([
      0,
      'turnId',
    ]);
    expect(thrown(() => toModelMessages('history' as never)).code).toBe('invalid-message');
    // Options are still checked first, by name.
    expect(thrown(() => toModelMessages([user], { foo: 1 } as never)).option).toBe('foo');
  });

  it('applyAnthropicCaching names the malformed model message', () => {
    const messages = [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: [{ type: 'text', text: 'b' }, 'c'] },
    ];
    const error = thrown(() => applyAnthropicCaching(messages as never));
    expect(error.code).toBe('invalid-ui-message');
    expect(error.path).toEqual([1, 'content', 1]);
    expect(thrown(() => applyAnthropicCaching([null] as never)).path).toEqual([0]);
    expect(
      thrown(() => applyAnthropicCaching([{ role: 'robot', content: '' }] as never)).path,
    ).toEqual([0, 'role']);
    expect(
      thrown(() => applyAnthropicCaching([{ role: 'tool', content: 'x' }] as never)).path,
    ).toEqual([0, 'content']);
    expect(thrown(() => applyAnthropicCaching(5 as never)).code).toBe('invalid-ui-message');
  });

  it('anthropicCachedSystem checks its content and options', () => {
    expect(thrown(() => anthropicCachedSystem(5 as never)).option).toBe('content');
    expect(thrown(() => anthropicCachedSystem('x', 'ttl' as never)).option).toBe('options');
  });
});
