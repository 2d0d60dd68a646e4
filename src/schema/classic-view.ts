// The schemas are defined once, with `zod/mini` (tree-shakeable: a browser bundle of the window
// carries only the checks it uses). The public `…Schema` exports are classic zod views of them,
// so that users keep every classic method (`.parse`, `.optional()`, `.array()`, `.pipe()`…).
// Build each view as `/* @__PURE__ */ classicView(schema)`: a bundle that does not use a view
// then drops it, and classic zod with it (`npm run check:package` fails when one leaks into the
// browser bundle of `chunklog/window` or `chunklog/react`).
import * as z from 'zod';
import type { ZodMiniType } from 'zod/mini';

/**
 * The classic zod schema of what `schema` (a `zod/mini` schema) accepts: the same checks, the
 * same output, the same issues and the same JSON Schema, with classic zod's methods. It is a
 * `z.lazy` that resolves to `schema`: zod hands it everything (parsing, optionality, JSON Schema).
 *
 * @param schema - the `zod/mini` definition
 * @returns a classic zod schema that delegates to `schema`
 *
 * @example
 * ```ts
 * // at module scope, marked pure (see the top of this file)
 * const TurnStatusSchema: z.ZodType<TurnStatus> = classicView(turnStatusMini);
 * ```
 */
export function classicView<T>(schema: ZodMiniType<T>): z.ZodType<T> {
  return z.lazy(() => schema);
}

/**
 * {@link classicView} of each schema of a record of `zod/mini` schemas.
 *
 * @param schemas - the `zod/mini` definitions, by key
 * @returns the classic zod schemas, by the same keys
 *
 * @example
 * ```ts
 * const RowDataSchemas = classicViews(rowDataMini); // marked pure at module scope
 * ```
 */
export function classicViews<S extends Readonly<Record<string, ZodMiniType>>>(
  schemas: S,
): { readonly [K in keyof S]: z.ZodType<z.output<S[K]>> } {
  const views: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(schemas)) views[key] = classicView(schema);
  return views as { readonly [K in keyof S]: z.ZodType<z.output<S[K]>> };
}
