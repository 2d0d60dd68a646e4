// The AI SDK's headless chat, as `useChat` runs it, without a UI framework: `AbstractChat` with a
// plain state object.
import {
  AbstractChat,
  type ChatInit,
  type ChatState,
  type ChatStatus,
  type ChatTransport,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';

class PlainChatState<M extends UIMessage> implements ChatState<M> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  messages: M[];

  constructor(messages: M[]) {
    this.messages = messages;
  }

  pushMessage = (message: M): void => {
    this.messages = [...this.messages, message];
  };

  popMessage = (): void => {
    this.messages = this.messages.slice(0, -1);
  };

  replaceMessage = (index: number, message: M): void => {
    this.messages = [...this.messages.slice(0, index), message, ...this.messages.slice(index + 1)];
  };

  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** A headless chat. */
export class HeadlessChat<M extends UIMessage = UIMessage> extends AbstractChat<M> {
  constructor(init: ChatInit<M> = {}) {
    const { messages = [], ...rest } = init;
    super({ ...rest, state: new PlainChatState(messages) });
  }
}

/** A transport that answers every request with the next of the given streams. */
export function streamTransport(
  next: () => ReadableStream<UIMessageChunk> | Promise<ReadableStream<UIMessageChunk>>,
): ChatTransport<UIMessage> {
  return {
    sendMessages: async () => next(),
    reconnectToStream: async () => null,
  };
}

/** A value as JSON keeps it: `undefined` members dropped. */
export function asStored<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
