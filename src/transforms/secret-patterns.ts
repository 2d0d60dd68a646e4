// The ready redactor: common secrets found by pattern (notes/0085).
import { ChunklogError } from '../errors/chunklog-error.js';
import type { RedactionCounts } from '../schema/redaction.js';
import { pendingTail, type RedactedText, type Redactor } from './redactor.js';

/** The kinds of secret {@link redactSecrets} finds. */
export type SecretKind = 'api-key' | 'bearer-token' | 'email' | 'card-number';

/**
 * A kind of secret found by a regular expression, for {@link createSecretRedactor}.
 *
 * @example
 * ```ts
 * const ticket: SecretPattern = { kind: 'ticket', pattern: /\bTICKET-\d{6}\b/g };
 * ```
 */
export interface SecretPattern {
  /** The kind it counts under and names in its replacement, `[redacted:${kind}]`. */
  readonly kind: string;
  /** The expression; it must have the `g` flag. Each match is replaced whole. */
  readonly pattern: RegExp;
  /** Whether a match is a secret (default: every match is); a refused match is looked past by one character. */
  readonly check?: ((match: string) => boolean) | undefined;
}

/** Options of {@link createSecretRedactor}. */
export interface SecretRedactorOptions {
  /** The ready kinds to find (default: all of them). */
  readonly kinds?: readonly SecretKind[] | undefined;
  /** More patterns, applied after the ready ones. */
  readonly patterns?: readonly SecretPattern[] | undefined;
}

/**
 * Whether `digits` (only digits) pass the Luhn check that card numbers carry.
 *
 * @param digits - the digits, without separators
 * @returns whether the check digit matches
 * @example
 * ```ts
 * luhnValid('4111111111111111'); // true
 * luhnValid('4111111111111112'); // false
 * ```
 */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const API_KEY = new RegExp(
  [
    // OpenAI (sk-, sk-proj-) and Anthropic (sk-ant-…): random characters, some upper or digit
    String.raw`\bsk-[A-Za-z0-9_-]{20,}`,
    // AWS access key ids
    String.raw`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`,
    // GitHub tokens
    String.raw`\bgh[pousr]_[A-Za-z0-9]{36,}`,
    String.raw`\bgithub_pat_[A-Za-z0-9_]{22,}`,
    // Slack tokens
    String.raw`\bxox[abposr]-[A-Za-z0-9-]{10,}`,
    // Google API keys
    String.raw`\bAIza[0-9A-Za-z_-]{35}`,
    // Stripe secret and restricted keys
    String.raw`\b[rs]k_(?:live|test)_[0-9A-Za-z]{16,}`,
  ].join('|'),
  'g',
);

const READY: Readonly<Record<SecretKind, SecretPattern>> = {
  'api-key': {
    kind: 'api-key',
    pattern: API_KEY,
    // `sk-learn-tutorial-introduction` is prose; a key has an upper-case letter or a digit.
    check: (match) => !match.startsWith('sk-') || /[0-9A-Z]/.test(match.slice(3)),
  },
  'bearer-token': {
    kind: 'bearer-token',
    // The token after `Bearer` (an HTTP Authorization header, a curl command); the word stays.
    pattern: /(?<=\b(?:[Bb]earer|BEARER)\s+)[A-Za-z0-9._~+/-]{16,}=*/g,
  },
  email: {
    kind: 'email',
    pattern:
      /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g,
  },
  'card-number': {
    kind: 'card-number',
    // 13 to 19 digits, starting 2 to 6, single spaces or dashes between them; the shortest run
    // that ends a digit group is tried first, then the Luhn check decides.
    pattern: /(?<!\d)[2-6](?:[ -]?\d){12,18}?(?!\d)/g,
    check: (match) => luhnValid(match.replace(/[ -]/g, '')),
  },
};

/** The ready kinds, in the order they are applied. */
export const SECRET_KINDS: readonly SecretKind[] = [
  'api-key',
  'bearer-token',
  'email',
  'card-number',
];

function replaceAll(text: string, p: SecretPattern, counts: Record<string, number>): string {
  const re = p.pattern;
  re.lastIndex = 0;
  let out = '';
  let from = 0;
  let n = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const match = m[0];
    if (match === '') {
      re.lastIndex = m.index + 1;
      continue;
    }
    if (p.check !== undefined && !p.check(match)) {
      re.lastIndex = m.index + 1;
      continue;
    }
    out += `${text.slice(from, m.index)}[redacted:${p.kind}]`;
    from = m.index + match.length;
    re.lastIndex = from;
    n++;
  }
  if (n === 0) return text;
  counts[p.kind] = (counts[p.kind] ?? 0) + n;
  return out + text.slice(from);
}

/**
 * A {@link Redactor} of secrets found by pattern: API keys (OpenAI, Anthropic, AWS, GitHub,
 * Slack, Google, Stripe), bearer tokens, email addresses and card numbers (13–19 digits,
 * Luhn-checked), each replaced by `[redacted:${kind}]`, plus any patterns of your own.
 *
 * @param options - the ready kinds to use, and more patterns
 * @returns the redactor
 * @throws {ChunklogError} `invalid-option` for an unknown kind or a pattern without the `g` flag
 *
 * @example
 * ```ts
 * const redact = createSecretRedactor({
 *   kinds: ['api-key', 'bearer-token'],
 *   patterns: [{ kind: 'ticket', pattern: /\bTICKET-\d{6}\b/g }],
 * });
 * const session = createAgentSession({ store, model, redact });
 * ```
 */
export function createSecretRedactor(options: SecretRedactorOptions = {}): Redactor {
  const kinds = options.kinds ?? SECRET_KINDS;
  const patterns: SecretPattern[] = [];
  for (const kind of kinds) {
    const ready = SECRET_KINDS.includes(kind) ? READY[kind] : undefined;
    if (ready === undefined) {
      throw new ChunklogError(
        'invalid-option',
        `createSecretRedactor: unknown kind ${JSON.stringify(kind)} (known: ${SECRET_KINDS.join(', ')})`,
        { option: 'kinds', value: kind },
      );
    }
    patterns.push({ ...ready, pattern: new RegExp(ready.pattern) });
  }
  for (const p of options.patterns ?? []) {
    if (!(p?.pattern instanceof RegExp) || !p.pattern.global || typeof p.kind !== 'string') {
      throw new ChunklogError(
        'invalid-option',
        'createSecretRedactor: each pattern needs a `kind` and a `pattern` with the `g` flag',
        { option: 'patterns', value: p },
      );
    }
    patterns.push({ ...p, pattern: new RegExp(p.pattern) });
  }
  return {
    redact(text: string): RedactedText {
      const counts: Record<string, number> = {};
      let out = text;
      for (const p of patterns) out = replaceAll(out, p, counts);
      return { text: out, counts: counts as RedactionCounts };
    },
    pending: pendingTail,
  };
}

/**
 * The ready {@link Redactor}: every kind of {@link createSecretRedactor} (API keys, bearer
 * tokens, email addresses, Luhn-checked card numbers).
 *
 * @example
 * ```ts
 * redactSecrets.redact('mail me at ada@example.com');
 * // { text: 'mail me at [redacted:email]', counts: { email: 1 } }
 * ```
 */
export const redactSecrets: Redactor = /* @__PURE__ */ createSecretRedactor();
