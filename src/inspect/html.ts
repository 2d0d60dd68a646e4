/** A piece of HTML that is already safe: built by {@link html}, never from untrusted text. */
export class SafeHtml {
  /** @param value - the HTML text */
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/**
 * Escapes text for an HTML text node or a quoted attribute value.
 *
 * @param text - any text
 * @returns the text with `& < > " '` escaped
 */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

type Part = SafeHtml | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof SafeHtml) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

/**
 * An HTML template: every interpolated value is escaped, unless it is {@link SafeHtml} (made by
 * this function); arrays are joined; `null`, `undefined` and `false` render nothing.
 *
 * @param strings - the template's literal parts (trusted)
 * @param values - the interpolated values
 * @returns the HTML
 */
export function html(strings: TemplateStringsArray, ...values: readonly Part[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** JSON for display (2-space indent), or the string itself. */
export function pretty(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2) ?? String(value);
}
