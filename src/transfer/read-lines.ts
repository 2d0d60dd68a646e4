// Text in chunks (strings or UTF-8 bytes, split anywhere) → numbered lines, with a bound on a
// line's length so that a file without newlines cannot fill the memory.
import { LineProblem } from './parse-line.js';

/**
 * What `importThread` reads: the export's text, whole or in chunks split anywhere (a Node
 * stream, a web `ReadableStream`, `exportThread`'s lines, an array of strings that keep their
 * newlines). Bytes are read as UTF-8.
 *
 * @example
 * ```ts
 * const input: ThreadExportInput = createReadStream('thread.jsonl');
 * ```
 */
export type ThreadExportInput =
  | string
  | Iterable<string | Uint8Array>
  | AsyncIterable<string | Uint8Array>
  | ReadableStream<string | Uint8Array>;

/** A line of the input: its number (from 1) and its text, without the line break. */
export interface NumberedLine {
  readonly number: number;
  readonly text: string;
}

/** A line too long, or bytes that are not UTF-8: what is wrong and at which line. */
export class InputProblem {
  /**
   * @param line - the line number
   * @param problem - what is wrong
   */
  constructor(
    readonly line: number,
    readonly problem: LineProblem,
  ) {}
}

/** Whether `input` is something {@link readLines} can read. */
export function isExportInput(input: unknown): input is ThreadExportInput {
  if (typeof input === 'string') return true;
  if (typeof input !== 'object' || input === null) return false;
  return (
    Symbol.asyncIterator in input ||
    Symbol.iterator in input ||
    typeof (input as { getReader?: unknown }).getReader === 'function'
  );
}

async function* chunksOf(input: ThreadExportInput): AsyncGenerator<string | Uint8Array> {
  if (typeof input === 'string') {
    yield input;
    return;
  }
  if (!(Symbol.asyncIterator in input) && 'getReader' in input) {
    const reader = input.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      reader.releaseLock();
    }
  }
  yield* input as AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;
}

/**
 * The input's lines, numbered from 1 (`\n` or `\r\n` ends a line; a last line without one
 * counts). A byte order mark at the start is dropped.
 *
 * @param input - the text
 * @param maxLength - the most characters a line may hold
 * @returns the lines
 * @throws {InputProblem} for a line longer than `maxLength`, or bytes that are not UTF-8
 */
export async function* readLines(
  input: ThreadExportInput,
  maxLength: number,
): AsyncGenerator<NumberedLine> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  // The line being read, in pieces: each chunk is searched for a line break once and joined once,
  // so a line over many chunks (a row carrying a large file) is read in linear time.
  const pieces: string[] = [];
  let pending = 0;
  let number = 1;
  const decode = (chunk: string | Uint8Array, stream: boolean): string => {
    if (typeof chunk === 'string') return chunk;
    try {
      return decoder.decode(chunk, { stream });
    } catch (error) {
      throw new InputProblem(number, new LineProblem('the bytes are not UTF-8 text', [], error));
    }
  };
  const tooLong = () =>
    new InputProblem(
      number,
      new LineProblem(
        `the line is longer than ${maxLength} characters`,
        [],
        undefined,
        'maxLineLength',
      ),
    );
  // A line's text, checked before it is joined; one character more for the `\r` of a CRLF.
  const line = (last: string): string => {
    if (pending + last.length > maxLength + 1) throw tooLong();
    pieces.push(last);
    const text = clean(pieces.join(''), number);
    pieces.length = 0;
    pending = 0;
    if (text.length > maxLength) throw tooLong();
    return text;
  };
  for await (const chunk of chunksOf(input)) {
    if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) {
      throw new InputProblem(number, new LineProblem('the input gave a chunk that is not text'));
    }
    const text = decode(chunk, true);
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      const full = line(text.slice(start, end));
      start = end + 1;
      yield { number, text: full };
      number++;
    }
    if (start < text.length) {
      pieces.push(text.slice(start));
      pending += text.length - start;
      if (pending > maxLength + 1) throw tooLong();
    }
  }
  const rest = decode(new Uint8Array(0), false);
  if (pending === 0 && rest === '') return;
  yield { number, text: line(rest) };
}

function clean(text: string, number: number): string {
  let out = text.endsWith('\r') ? text.slice(0, -1) : text;
  if (number === 1 && out.startsWith('\uFEFF')) out = out.slice(1);
  return out;
}
