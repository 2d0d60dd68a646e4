// How each provider's recorded lines go back on the wire, as the provider's own tests feed them
// to a custom `fetch` (the README of the fixtures): `event:` + `data:` lines, `data:` lines with
// or without a closing `data: [DONE]`, files that are SSE already, and Amazon Bedrock's binary
// AWS event stream (each line one decoded message `{"<eventType>": {...}}`, encoded again).
import { EventStreamCodec } from '@smithy/eventstream-codec';

/** A wire framing of recorded lines. */
export type Framing = 'event' | 'data' | 'data-done' | 'sse' | 'aws-event-stream';

const utf8 = new TextEncoder();
const codec = new EventStreamCodec(
  (bytes: Uint8Array) => new TextDecoder().decode(bytes),
  (text: string) => utf8.encode(text),
);

/** The `type` of a recorded line (undefined for a line that is not valid JSON: kept as recorded). */
function eventType(line: string): unknown {
  try {
    return (JSON.parse(line) as { type?: unknown }).type;
  } catch {
    return undefined;
  }
}

function sseBody(lines: readonly string[], framing: Framing): string {
  if (framing === 'sse') return `${lines.join('\n\n')}\n\n`;
  const events = lines.map((line) => {
    if (framing !== 'event') return `data: ${line}\n\n`;
    const type = eventType(line);
    return typeof type === 'string' ? `event: ${type}\ndata: ${line}\n\n` : `data: ${line}\n\n`;
  });
  if (framing === 'data-done') events.push('data: [DONE]\n\n');
  return events.join('');
}

function awsEventStream(lines: readonly string[]): Uint8Array {
  const messages = lines.map((line) => {
    const [[eventType, payload]] = Object.entries(JSON.parse(line) as Record<string, unknown>) as [
      [string, unknown],
    ];
    return codec.encode({
      headers: {
        ':message-type': { type: 'string', value: 'event' },
        ':event-type': { type: 'string', value: eventType },
        ':content-type': { type: 'string', value: 'application/json' },
      },
      body: utf8.encode(JSON.stringify(payload)),
    });
  });
  const out = new Uint8Array(messages.reduce((n, m) => n + m.length, 0));
  let at = 0;
  for (const message of messages) {
    out.set(message, at);
    at += message.length;
  }
  return out;
}

/** The HTTP response that carries `lines` in `framing`. */
export function recordedResponse(lines: readonly string[], framing: Framing): Response {
  if (framing === 'aws-event-stream') {
    const bytes = awsEventStream(lines);
    const body = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    return new Response(body as ArrayBuffer, {
      status: 200,
      headers: { 'content-type': 'application/vnd.amazon.eventstream' },
    });
  }
  return new Response(sseBody(lines, framing), {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
  });
}

/** A `fetch` that answers call n with response n, and keeps each JSON request body. */
export interface ReplayFetch {
  readonly fetch: typeof globalThis.fetch;
  /** The parsed JSON body of every request, in order. */
  readonly requests: unknown[];
}

/** A replaying `fetch` over recorded responses. */
export function replayFetch(
  responses: readonly (readonly string[])[],
  framing: Framing,
): ReplayFetch {
  const requests: unknown[] = [];
  let call = 0;
  const fetch = async (_input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    if (typeof init?.body === 'string') requests.push(JSON.parse(init.body));
    const lines = responses[call++];
    if (lines === undefined) {
      return new Response(JSON.stringify({ error: { message: 'no more recorded responses' } }), {
        status: 500,
        headers: { 'content-type': 'application/json' },
      });
    }
    return recordedResponse(lines, framing);
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}
