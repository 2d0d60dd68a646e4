// The checks of an export's lines. Each envelope is strict (an unknown key is refused: a
// version-1 reader must not drop what a writer meant to keep); a row's draft fields are checked
// by the core's ChunkRowDraftSchema, as `appendTurn` checks them, and refused, like the turns'
// usage, when the parse lost a field it does not know, at any depth.
import { z } from 'zod';
import { type ChunkRowDraft, ChunkRowDraftSchema } from '../schema/chunk-row.js';
import { idProblem } from '../schema/id.js';
import { INSTANT_EXAMPLE, isoInstantMillis } from '../schema/instant.js';
import { JsonObjectSchema } from '../schema/json.js';
import { TurnStatusSchema } from '../schema/turn-status.js';
import { FinishReasonSchema, TokenUsageSchema } from '../schema/usage.js';
import {
  THREAD_EXPORT_FORMAT,
  THREAD_EXPORT_VERSION,
  type ThreadExportEnd,
  type ThreadExportHeader,
  type ThreadExportRow,
  type ThreadExportTurn,
} from './format.js';

/** What is wrong with one line; the importer adds the line number and what was imported. */
export class LineProblem {
  /**
   * @param text - what is wrong, as a clause (`"seq" must be above 4`)
   * @param path - where in the line's object
   * @param cause - the zod error, when there is one
   * @param limit - the option whose limit the line is over (then the file is not wrong)
   */
  constructor(
    readonly text: string,
    readonly path: readonly PropertyKey[] = [],
    readonly cause?: unknown,
    readonly limit?: 'maxLineLength',
  ) {}
}

/** A time by the one rule `appendTurn`'s `createdAt` follows (`isoInstantMillis`). */
const isoTime = z.string().check((ctx) => {
  if (isoInstantMillis(ctx.value) === undefined) {
    ctx.issues.push({
      code: 'custom',
      message: `not an ISO 8601 date-time with a time zone (${INSTANT_EXAMPLE})`,
      input: ctx.value,
    });
  }
});
const count = z.number().int().nonnegative();

/** An id by the one rule the store applies (`idProblem`), so a bad one stops at its line. */
const id = (what: string) =>
  z.string().check((ctx) => {
    const problem = idProblem(ctx.value);
    if (problem !== undefined) {
      ctx.issues.push({ code: 'custom', message: `${what} ${problem}`, input: ctx.value });
    }
  });

const HeaderSchema = z.strictObject({
  format: z.literal(THREAD_EXPORT_FORMAT),
  version: z.literal(THREAD_EXPORT_VERSION),
  thread: z.strictObject({
    id: id('a thread id'),
    createdAt: isoTime,
    updatedAt: isoTime.optional(),
    total: count.optional(),
    title: z.string().optional(),
    ownerId: id('an owner id').optional(),
    metadata: JsonObjectSchema.optional(),
  }),
});

const TurnSchema = z.strictObject({
  kind: z.literal('turn'),
  turnId: id('a turn id'),
  status: TurnStatusSchema,
  usage: z
    .array(
      z.strictObject({
        step: count,
        modelId: z.string().optional(),
        finishReason: FinishReasonSchema.optional(),
        usage: TokenUsageSchema,
        durationMs: z.number().nonnegative().optional(),
      }),
    )
    .optional(),
});

const RowSchema = z.strictObject({
  kind: z.literal('row'),
  seq: z.number().int().positive(),
  createdAt: isoTime.optional(),
  turnId: z.unknown(),
  step: z.unknown(),
  role: z.unknown(),
  type: z.unknown(),
  data: z.unknown(),
});

const EndSchema = z.strictObject({ kind: z.literal('end'), turns: count, rows: count });

function parsed<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path ?? [];
  const where = path.length > 0 ? ` at ${path.map(String).join('.')}` : '';
  throw new LineProblem(
    `not a valid ${what} line${where}: ${issue?.message ?? 'invalid'}`,
    path,
    result.error,
  );
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The path of the first key of `input` that its parse (`output`) no longer has: a field the
 * schema does not know, which it would drop in silence. Values are not compared.
 */
function droppedKey(input: unknown, output: unknown): PropertyKey[] | undefined {
  if (Array.isArray(input) && Array.isArray(output)) {
    for (const [i, item] of input.entries()) {
      const below = droppedKey(item, output[i]);
      if (below !== undefined) return [i, ...below];
    }
    return undefined;
  }
  if (!isRecord(input) || !isRecord(output)) return undefined;
  for (const [key, value] of Object.entries(input)) {
    if (!(key in output)) return [key];
    const below = droppedKey(value, output[key]);
    if (below !== undefined) return [key, ...below];
  }
  return undefined;
}

/** `parsed`, refusing a value with a field the schema does not know (at any depth). */
function parsedWhole<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = parsed(schema, value, what);
  const path = droppedKey(value, result);
  if (path !== undefined) {
    throw new LineProblem(
      `not a valid ${what} line at ${path.map(String).join('.')}: not a field this chunklog knows (importing it would drop it)`,
      path,
    );
  }
  return result;
}

/**
 * Checks the first line: the format, then the version (an unknown one is refused by name), then
 * the thread.
 *
 * @param value - the line's JSON value
 * @returns the header
 * @throws {LineProblem} naming what is wrong
 */
export function parseHeader(value: unknown): ThreadExportHeader {
  if (!isRecord(value) || value.format !== THREAD_EXPORT_FORMAT) {
    throw new LineProblem(
      `not a chunklog thread export: the first line must be a header with "format": "${THREAD_EXPORT_FORMAT}"`,
      ['format'],
    );
  }
  if (value.version !== THREAD_EXPORT_VERSION) {
    throw new LineProblem(
      `version ${JSON.stringify(value.version)} of ${THREAD_EXPORT_FORMAT} is not one this chunklog reads (it reads version ${THREAD_EXPORT_VERSION}); a newer chunklog may`,
      ['version'],
    );
  }
  return parsed(HeaderSchema, value, 'header') as ThreadExportHeader;
}

/** A line after the header. */
export type BodyLine = ThreadExportTurn | ThreadExportRow | ThreadExportEnd;

/**
 * Checks a line after the header: a turn, a row (its draft fields against `ChunkRowDraftSchema`)
 * or the end.
 *
 * @param value - the line's JSON value
 * @returns the line
 * @throws {LineProblem} naming what is wrong
 */
export function parseBodyLine(value: unknown): BodyLine {
  const kind = isRecord(value) ? value.kind : undefined;
  switch (kind) {
    case 'turn':
      return parsedWhole(TurnSchema, value, 'turn') as ThreadExportTurn;
    case 'end':
      return parsed(EndSchema, value, 'end');
    case 'row': {
      const { kind: _kind, seq, createdAt, ...fields } = parsed(RowSchema, value, 'row');
      const draft: ChunkRowDraft = parsedWhole(ChunkRowDraftSchema, fields, 'row');
      return {
        kind: 'row',
        seq,
        ...draft,
        ...(createdAt !== undefined ? { createdAt } : {}),
      } as ThreadExportRow;
    }
    default:
      throw new LineProblem(
        isRecord(value) && 'format' in value
          ? 'a second header: an export holds one thread'
          : 'not a line of a thread export: expected an object with "kind": "turn", "row" or "end"',
        ['kind'],
      );
  }
}
