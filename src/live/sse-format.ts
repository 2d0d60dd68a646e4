import { invalidOption, readOptions } from '../errors/invalid-option.js';

/**
 * One server-sent event: `id:` (when given), `event:` (when not the default `message`) and the
 * JSON on one `data:` line (JSON text has no raw newline), then a blank line.
 *
 * @param data - the JSON payload
 * @param options - the event's id and type (one line each: no CR, LF or NUL)
 * @returns the event's text
 * @throws {ChunklogError} `invalid-option` when `data` has no JSON text, or the id or type would
 *   break the line it is written on (which would let it inject other fields)
 *
 * @example
 * ```ts
 * formatSse({ type: 'turn-end' }, { id: 't1:9' }); // 'id: t1:9\ndata: {"type":"turn-end"}\n\n'
 * ```
 */
export function formatSse(data: unknown, options: { id?: string; event?: string } = {}): string {
  const { id, event } = readOptions(options, 'formatSse', ['id', 'event']);
  let out = '';
  if (event !== undefined) out += `event: ${fieldValue('event', event)}\n`;
  if (id !== undefined) out += `id: ${fieldValue('id', id)}\n`;
  let json: string | undefined;
  try {
    json = JSON.stringify(data);
  } catch {
    json = undefined;
  }
  if (json === undefined) invalidOption('formatSse', 'data', '`data` must be JSON', data);
  return `${out}data: ${json}\n\n`;
}

/** One SSE field value: a string that stays on its line. */
function fieldValue(option: string, value: unknown): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what it rejects
  if (typeof value !== 'string' || /[\r\n\u0000]/.test(value)) {
    invalidOption(
      'formatSse',
      option,
      `\`${option}\` must be a string without CR, LF or NUL`,
      value,
    );
  }
  return value;
}
