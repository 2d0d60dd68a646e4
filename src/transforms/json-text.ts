// A tool's input streams as raw JSON text, where `\n` (backslash, n) stands for a line break: the
// patterns would read "nBearer" in `a\nBearer …`. Redaction of such text runs on a view of it in
// which every escape is as many U+2028 (a whitespace to a regular expression) as it has
// characters, and puts the escapes back after (notes/0085).
import type { Redactor } from './redactor.js';

const ESCAPE = /\\(?:u[0-9a-fA-F]{4}|[\s\S])|\u2028/g;
const MARK = '\u2028';

/** `text` with each escape masked, and the escapes' spans in order. */
function mask(text: string): { masked: string; spans: Array<[number, number]> } {
  const spans: Array<[number, number]> = [];
  const masked = text.replace(ESCAPE, (found, at: number) => {
    spans.push([at, at + found.length]);
    return MARK.repeat(found.length);
  });
  return { masked, spans };
}

/**
 * Where to hold raw JSON text back from: the redactor's `pending` of the masked view, never
 * inside an escape (moved to its end: what follows an escape at the end is whitespace only).
 */
export function pendingJsonText(text: string, pending: (text: string) => number): number {
  const { masked, spans } = mask(text);
  const cut = pending(masked);
  for (const [start, end] of spans) if (start < cut && cut < end) return end;
  return cut;
}

/**
 * Raw JSON text, redacted on its masked view with its escapes put back; `''` when the redactor
 * replaced an escape too (the text then cannot be told apart: it is left out of the preview, the
 * `tool-call` input that follows is redacted whole).
 */
export function redactJsonText(text: string, redactor: Redactor): string {
  const { masked, spans } = mask(text);
  const out = redactor.redact(masked).text;
  if (out === masked) return text;
  let result = '';
  let next = 0;
  for (let i = 0; i < out.length; i++) {
    if (out[i] !== MARK) {
      result += out[i];
      continue;
    }
    const span = spans[next++];
    if (span === undefined) return '';
    const length = span[1] - span[0];
    if (out.slice(i, i + length) !== MARK.repeat(length)) return '';
    result += text.slice(span[0], span[1]);
    i += length - 1;
  }
  return next === spans.length ? result : '';
}
