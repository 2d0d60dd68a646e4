import { expectTypeOf, test } from 'vitest';
import type { z } from 'zod';
import type {
  Chunk,
  ChunkEvent,
  ChunkEventSchema,
  ChunkRowDraft,
  ChunkType,
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
