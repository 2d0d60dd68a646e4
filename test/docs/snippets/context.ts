// The names a documentation snippet may assume (`// assumes: store, session`), each declared with
// its type. A snippet names what it assumes on its first line; the docs test imports exactly
// those names from here before type-checking it. Add a name here when a page needs a new one.
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { ModelMessage, Tool, UIMessage } from 'ai';
import type { ChatMessage, Chunk, ChunkRow } from 'chunklog';
import type { Relay } from 'chunklog/relay';
import type { AgentSession, Authorize, ChunkHandlers } from 'chunklog/session';
import type { ChunkStore } from 'chunklog/store';
import type { ChunkWindow } from 'chunklog/window';
import type { Dialect, Kysely } from 'kysely';
import type { ReactElement, ReactNode } from 'react';

/** A migrated store. */
export declare const store: ChunkStore;
/** A session on `threadId`. */
export declare const session: AgentSession;
/** The handlers of `createChunkHandlers`. */
export declare const handlers: ChunkHandlers;
/** A thread id. */
export declare const threadId: string;
/** A turn id. */
export declare const turnId: string;
/** A v4 language model (a provider's model object). */
export declare const model: LanguageModelV4;
/** The app's tools. */
export declare const tools: Record<string, Tool>;
/** A window over a thread. */
export declare const window: ChunkWindow;
/** The app's Kysely instance. */
// biome-ignore lint/suspicious/noExplicitAny: any schema
export declare const db: Kysely<any>;
/** Chat messages (`store.getMessages`). */
export declare const messages: ChatMessage[];
/** Stored rows. */
export declare const rows: ChunkRow[];
/** Model messages. */
export declare const modelMessages: ModelMessage[];
/** UI messages an app stored (`useChat`'s). */
export declare const uiMessages: UIMessage[];
/** An incoming request. */
export declare const request: Request;
/** Checks the app's own session cookie or token. */
export declare function canAccess(request: Request, threadId: string): boolean | Promise<boolean>;
/** Renders a value somewhere (an app's own function). */
export declare function render(value: unknown): void;
/** Sends text somewhere (a socket, a log). */
export declare function write(text: string): void;
/** The app's tools, one by one. */
export declare const read_file: Tool;
export declare const list_files: Tool;
/** The app's sessions, one per thread. */
export declare const sessions: Map<string, AgentSession>;
/** The relay given to the sessions and handlers (`createRedisRelay`, …). */
export declare const relay: Relay;
/** The app's access check. */
export declare const authorize: Authorize;
/** The app's own user lookup. */
export declare function userFromCookie(
  cookie: string | null,
): { canRead(threadId: string): boolean } | undefined;
/** A turn's chunks. */
export declare const chunks: Chunk[];
/** Where an export writes. */
export declare const out: { write(text: string): void };
/** A Kysely dialect of your own. */
export declare function myDialect(): Dialect;
/** `useChat`'s initial messages (`toUIMessages` of the stored thread). */
export declare const initialMessages: UIMessage[];
/** A row of the app's own table that holds stored UI messages as JSON. */
export declare const row: { messages: string };
/** A web socket the app's server pushes events on. */
export declare const socket: WebSocket;
/** Vue's `shallowRef`. */
export declare function shallowRef<T>(value: T): { value: T };
/** An app's components. */
export declare function Message(props: { message: ChatMessage }): ReactElement;
export declare function Notice(props: { kind: string; children?: ReactNode }): ReactElement;
export declare function ErrorCard(props: {
  title: string;
  next?: string | undefined;
  children?: ReactNode;
}): ReactElement;
