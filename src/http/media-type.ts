/**
 * Whether a request's `Content-Type` announces JSON the handlers can read: the media type
 * `application/json` or a `+json` suffix type (`application/merge-patch+json`), with no charset
 * or `charset=utf-8` (RFC 8259 makes UTF-8 the only encoding of JSON exchanged between systems).
 * `application/json-seq`, `application/jsonl` and a body declared in UTF-16 are refused rather
 * than read as something they are not.
 *
 * @param header - the `Content-Type` header, or null
 * @returns true when the body may be read as UTF-8 JSON
 */
export function isJsonMediaType(header: string | null): boolean {
  if (header === null) return false;
  const [essence = '', ...parameters] = header.split(';');
  const type = essence.trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[\w.!#$&^-]+\+json$/.test(type)) {
    return false;
  }
  for (const parameter of parameters) {
    const eq = parameter.indexOf('=');
    const name = parameter
      .slice(0, eq === -1 ? undefined : eq)
      .trim()
      .toLowerCase();
    if (name !== 'charset') continue;
    const value =
      eq === -1
        ? ''
        : parameter
            .slice(eq + 1)
            .trim()
            .replace(/^"(.*)"$/, '$1');
    if (value.toLowerCase() !== 'utf-8' && value.toLowerCase() !== 'utf8') return false;
  }
  return true;
}

/**
 * Whether a request's `Accept` header prefers JSON to a stream of server-sent events: the quality
 * it gives `application/json` is above the one it gives `text/event-stream`, each by its most
 * specific matching range (`application/json` before `application/*` before the range of every
 * type; a type no range matches has quality 0). No header, a browser's default (every type), or
 * both types alike do not: the route answers as it would without the header.
 *
 * @param header - the `Accept` header, or null
 * @returns true when the client asks for JSON rather than an event stream
 */
export function prefersJson(header: string | null): boolean {
  if (header === null) return false;
  const ranges = header.split(',').flatMap(parseRange);
  return quality(ranges, 'application', 'json') > quality(ranges, 'text', 'event-stream');
}

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

/** One range of an `Accept` header (none when it is malformed). */
function parseRange(text: string): MediaRange[] {
  const [essence = '', ...parameters] = text.split(';');
  const [type, subtype, extra] = essence.trim().toLowerCase().split('/');
  if (type === undefined || subtype === undefined || extra !== undefined) return [];
  if (type === '' || subtype === '' || (type === '*' && subtype !== '*')) return [];
  let q = 1;
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=');
    if (name.trim().toLowerCase() !== 'q') continue;
    if (!/^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value.trim())) return [];
    q = Number(value.trim());
  }
  return [{ type, subtype, q }];
}

/** The quality the most specific range matching `type/subtype` gives it; 0 when none matches. */
function quality(ranges: readonly MediaRange[], type: string, subtype: string): number {
  let best: { specificity: number; q: number } = { specificity: -1, q: 0 };
  for (const range of ranges) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === '*'
          ? 1
          : range.type === '*'
            ? 0
            : -1;
    if (specificity > best.specificity) best = { specificity, q: range.q };
  }
  return best.q;
}
