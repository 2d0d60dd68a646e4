// Redaction at write (notes/0085), as a property: whatever secrets of the ready patterns a turn
// carries — in the user's message (stored, and sent with the turn's start), text and reasoning deltas split anywhere (inside a secret
// too), a tool's streamed input, its progress text and its result — none reaches a stored row,
// a published event or the turn's handle; what is stored is what redacting each whole text gives;
// the `redacted` chunks count every secret once; and the model input rebuilt from the store goes
// through the real Anthropic and OpenAI request builders with its reasoning signature verbatim
// and every tool call answered.
import { tool } from 'ai';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentSession, toolProgress } from '../../src/entries/session.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import type { ChunkRow } from '../../src/schema/chunk-row.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { createSecretRedactor, luhnValid, redactSecrets } from '../../src/transforms/index.js';
import { anthropicOrphans, openaiOrphans, requestBody } from './support/provider-request.js';
import { openSqliteStore, sequentialIds } from './support.js';

type Kind = 'api-key' | 'bearer-token' | 'email' | 'card-number';
/** A generated secret: what must not survive, and how it is written in the text. */
interface Secret {
  readonly kind: Kind;
  readonly written: string;
  readonly secret: string;
}

const chars = (alphabet: string, min: number, max: number) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max }).map((a) => a.join(''));
const lower = 'abcdefghijklmnopqrstuvwxyz';
const upper = lower.toUpperCase();
const digits = '0123456789';
const base62 = lower + upper + digits;

const apiKey: fc.Arbitrary<Secret> = fc
  .oneof(
    fc
      .tuple(
        fc.constantFrom('sk-', 'sk-proj-', 'sk-ant-api03-'),
        chars(base62, 20, 40),
        chars(digits, 1, 2),
      )
      .map(([p, a, d]) => p + a + d),
    chars(upper + digits, 16, 16).map((s) => `AKIA${s}`),
    chars(base62, 36, 40).map((s) => `ghp_${s}`),
    fc.tuple(chars(digits, 8, 12), chars(base62, 10, 24)).map(([d, s]) => `xoxb-${d}-${s}`),
  )
  .map((key) => ({ kind: 'api-key', written: key, secret: key }));

const bearer: fc.Arbitrary<Secret> = fc
  .tuple(
    fc.constantFrom('Bearer', 'bearer'),
    fc.constantFrom(' ', '  ', '\n'),
    chars(`${base62}._-`, 16, 40),
  )
  .map(([word, space, token]) => ({
    kind: 'bearer-token',
    written: `${word}${space}eyJ${token}`,
    secret: `eyJ${token}`,
  }));

const email: fc.Arbitrary<Secret> = fc
  .tuple(
    chars(`${lower}${digits}._+`, 1, 12),
    chars(lower, 2, 10),
    fc.constantFrom('com', 'io', 'co.uk', 'dev'),
  )
  .map(([local, domain, tld]) => `${local}@${domain}.${tld}`)
  .map((address) => ({ kind: 'email', written: address, secret: address }));

/** A Luhn-valid 16-digit card number, grouped by fours with spaces, dashes or nothing. */
const card: fc.Arbitrary<Secret> = fc
  .tuple(fc.constantFrom('4', '5'), chars(digits, 14, 14), fc.constantFrom(' ', '-', ''))
  .map(([first, body, separator]) => {
    const partial = first + body;
    const check = [...digits].find((d) => luhnValid(partial + d)) as string;
    const number = partial + check;
    return {
      kind: 'card-number',
      written: (number.match(/.{4}/g) as string[]).join(separator),
      secret: number,
    };
  });

const secretArb: fc.Arbitrary<Secret> = fc.oneof(apiKey, bearer, email, card);

/** Words that are no secret and lead into none (no `bearer`, no digits). */
const filler = chars(lower, 1, 8).filter((w) => w !== 'bearer');

/** A text of filler words with secrets among them, and the secrets it holds. */
const carrier = fc
  .array(fc.oneof({ weight: 3, arbitrary: filler }, { weight: 1, arbitrary: secretArb }), {
    minLength: 1,
    maxLength: 8,
  })
  .chain((items) =>
    fc
      .array(fc.constantFrom(' ', '\n', ', ', '. '), {
        minLength: items.length,
        maxLength: items.length,
      })
      .map((gaps) => {
        const secrets = items.filter((i): i is Secret => typeof i !== 'string');
        const text = items
          .map((item, i) => (typeof item === 'string' ? item : item.written) + (gaps[i] as string))
          .join('');
        return { text, secrets };
      }),
  );
type Carrier = { text: string; secrets: Secret[] };

/** `text` cut into deltas at the given points (any position, inside a secret too). */
function cut(text: string, points: readonly number[]): string[] {
  const at = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const p of at) {
    if (p > from) pieces.push(text.slice(from, p));
    from = Math.max(from, p);
  }
  pieces.push(text.slice(from));
  return pieces.filter((p) => p !== '');
}

const turnArb = fc.record({
  user: carrier,
  reasoning: carrier,
  text: carrier,
  input: carrier,
  progress: carrier,
  result: carrier,
  answer: carrier,
  cuts: fc.array(fc.nat(400), { maxLength: 12 }),
  inputPiece: fc.integer({ min: 1, max: 7 }),
});

describe('redaction at write (property)', () => {
  let opened: Awaited<ReturnType<typeof openSqliteStore>>;
  beforeAll(async () => {
    opened = await openSqliteStore();
  });
  afterAll(async () => {
    await opened.dispose();
  });

  it('no generated secret survives in rows or live events; the model input still builds', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(turnArb, async (t) => {
        const threadId = `r${++run}`;
        const redact = (s: string) => redactSecrets.redact(s).text;
        const model = createScriptedModel([
          {
            parts: [
              { type: 'reasoning', text: cut(t.reasoning.text, t.cuts), signature: 'sig-KEEP' },
              { type: 'text', text: cut(t.text.text, t.cuts) },
              {
                type: 'tool-call',
                toolName: 'lookup',
                input: { q: t.input.text },
                streamInput: t.inputPiece,
              },
            ],
          },
          { parts: [{ type: 'text', text: cut(t.answer.text, t.cuts) }] },
        ]);
        const lookup = tool({
          description: 'Look up',
          inputSchema: z.object({ q: z.string() }),
          execute: async (_input, options) => {
            const progress = toolProgress(options);
            for (const piece of cut(t.progress.text, t.cuts)) progress(piece);
            return { echo: t.result.text };
          },
        });
        const session = createAgentSession({
          store: opened.store,
          threadId,
          model,
          tools: { lookup },
          idGenerator: sequentialIds(),
          redact: redactSecrets,
        });
        const published: ChunkEvent[] = [];
        session.subscribe((event) => published.push(event));
        const handle = session.send(t.user.text);
        const iterated: ChunkEvent[] = [];
        for await (const event of handle) iterated.push(event);
        await handle.rows;
        const rows: ChunkRow[] = await opened.store.getRows(threadId);
        const input = await session.modelMessages();
        await session.close();

        const all = [t.user, t.reasoning, t.text, t.input, t.progress, t.result, t.answer];
        const secrets = all.flatMap((c: Carrier) => c.secrets);
        const seen = JSON.stringify({ rows, published, iterated, input });
        for (const s of secrets) expect(seen).not.toContain(s.secret);

        // What is stored is what redacting each whole text gives, however it was cut.
        const data = (type: string, role?: string) =>
          rows
            .filter((r) => r.type === type && (role === undefined || r.role === role))
            .map((r) => r.data);
        expect(data('text', 'user')).toEqual([{ text: redact(t.user.text) }]);
        // The user's text goes out with the turn's start as it is stored.
        expect(published[0]).toMatchObject({ type: 'turn-start', userText: redact(t.user.text) });
        expect(data('thinking')).toMatchObject([
          {
            text: redact(t.reasoning.text),
            providerMetadata: { anthropic: { signature: 'sig-KEEP' } },
          },
        ]);
        expect(data('text', 'assistant').map((d) => (d as { text: string }).text)).toEqual([
          redact(t.text.text),
          redact(t.answer.text),
        ]);
        expect(data('tool_call')).toMatchObject([{ input: { q: redact(t.input.text) } }]);
        expect(data('tool_result')).toMatchObject([
          { result: { echo: redact(t.result.text) }, progress: redact(t.progress.text) },
        ]);

        // The log stays honest: every secret counted once, by kind; the counts hold no secret.
        const expected: Record<string, number> = {};
        for (const s of secrets) expected[s.kind] = (expected[s.kind] ?? 0) + 1;
        const counted: Record<string, number> = {};
        for (const r of rows) {
          if (r.type !== 'system' || r.data.kind !== 'redacted') continue;
          for (const [kind, n] of Object.entries(r.data.redaction?.counts ?? {}))
            counted[kind] = (counted[kind] ?? 0) + n;
        }
        expect(counted).toEqual(expected);

        // The model input rebuilt from the store: no secret, the signature verbatim, and a body
        // each real request builder makes with every tool call answered.
        const anthropic = await requestBody('anthropic', input, { lookup });
        const openai = await requestBody('openai', input, { lookup });
        expect(JSON.stringify([anthropic, openai])).not.toMatch(
          new RegExp(secrets.map((s) => s.secret.replace(/[.+]/g, '\\$&')).join('|') || '^$'),
        );
        expect(JSON.stringify(anthropic)).toContain('"signature":"sig-KEEP"');
        // Tool progress is stored and streamed, never sent to the model: a secret there leaves
        // no mark in the model input.
        const sentToModel = all.filter((c) => c !== t.progress).flatMap((c) => c.secrets);
        if (sentToModel.length > 0) expect(JSON.stringify(anthropic)).toContain('[redacted:');
        expect(anthropicOrphans(anthropic)).toEqual([]);
        expect(openaiOrphans(openai)).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });

  it('a custom pattern is held back and redacted like the ready ones', () => {
    const r = createSecretRedactor({
      kinds: [],
      patterns: [{ kind: 'pin', pattern: /\bPIN-\d{4}\b/g }],
    });
    expect(r.redact('my PIN-1234 now')).toEqual({
      text: 'my [redacted:pin] now',
      counts: { pin: 1 },
    });
  });
});
