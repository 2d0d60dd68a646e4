import { expectTypeOf, test } from 'vitest';
import type { z } from 'zod';
import type {
  Chunk,
  ChunkEvent,
  ChunkEventSchema,
  ChunkRowDraft,
  ChunkRowDraftBase,
  ChunkType,
  findNonJson,
  NonJsonReport,
  TextChunk,
  TextRowData,
  ToolResultRowData,
} from '../../src/schema/index.js';

test('schemas infer exactly the declared types', () => {
  expectTypeOf<z.infer<typeof ChunkEventSchema>>().toEqualTypeOf<ChunkEvent>();
  expectTypeOf<Chunk['type']>().toEqualTypeOf<ChunkType>();
  expectTypeOf<ChunkRowDraft['type']>().toEqualTypeOf<
    | 'text'
    | 'thinking'
    | 'tool_call'
    | 'tool_result'
    | 'error'
    | 'system'
    | 'source'
    | 'file'
    | 'custom'
    | 'steering'
    | 'data'
  >();
});

test('public types are built only from public types', () => {
  expectTypeOf<Extract<ChunkRowDraft, { type: 'text' }>>().toEqualTypeOf<
    ChunkRowDraftBase<'text', TextRowData>
  >();
  expectTypeOf<
    Extract<ChunkRowDraft, { type: 'tool_result' }>['data']
  >().toEqualTypeOf<ToolResultRowData>();
  expectTypeOf<TextRowData>().toEqualTypeOf<Omit<TextChunk, 'type' | 'step'>>();
  expectTypeOf<ReturnType<typeof findNonJson>>().toEqualTypeOf<NonJsonReport | undefined>();
});
