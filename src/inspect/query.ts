// Reading the inspector's query values: a value that is not what the page takes is a 400 naming
// it (a ChunklogError `invalid-option`), never a silent default.
import { ChunklogError } from '../errors/chunklog-error.js';

function bad(name: string, what: string, value: string): never {
  throw new ChunklogError('invalid-option', `${name} must be ${what}`, { option: name, value });
}

/** A positive integer query value (`before`, `step`), or undefined when absent. */
export function intParam(params: URLSearchParams, name: string, min = 1): number | undefined {
  const raw = params.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < min) bad(name, `an integer from ${min}`, raw);
  return Number(raw);
}

/** A text query value of at most `max` characters, or undefined when absent or blank. */
export function textParam(params: URLSearchParams, name: string, max: number): string | undefined {
  const raw = params.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  if (raw.length > max) bad(name, `at most ${max} characters`, raw.slice(0, 40));
  return raw;
}

/**
 * The path's segments, %-decoded.
 *
 * @throws {ChunklogError} `invalid-option` for a malformed %-escape
 */
export function pathSegments(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed
    .split('/')
    .slice(1)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return bad('path', 'made of valid %-escapes (UTF-8)', segment);
      }
    });
}
