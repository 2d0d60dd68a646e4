// The names a documentation snippet may assume (`// assumes: store, session`), each declared with
// its type. A snippet names what it assumes on its first line; the docs test imports exactly
// those names from here before type-checking it. Add a name here when a page needs a new one.
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { ModelMessage, ToolSet, UIMessage } from 'ai';
import type { ChatMessage, ChunkRow } from 'chunklog';
import type { AgentSession, ChunkHandlers } from 'chunklog/session';
import type { ChunkStore } from 'chunklog/store';
import type { ChunkWindow } from 'chunklog/window';
import type { Kysely } from 'kysely';

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
export declare const tools: ToolSet;
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
