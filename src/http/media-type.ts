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
