import { en } from 'zod/locales';
import { config } from 'zod/mini';
import type { $ZodErrorMap, $ZodIssue, ParseContext } from 'zod/v4/core';

const english: $ZodErrorMap = en().localeError;

/**
 * zod's English message for an issue, unless the app configured zod's messages itself (a
 * `customError` or a locale, with `z.config`): then nothing, and zod words it the app's way.
 *
 * Classic zod installs its English messages when it is imported; `zod/mini` does not, so without
 * this a browser bundle of the window (which has no classic zod) would word every problem
 * `Invalid input`.
 */
const englishUnlessConfigured: $ZodErrorMap = (issue) => {
  const global = config();
  if (global.customError !== undefined || global.localeError !== undefined) return undefined;
  return english(issue);
};

/**
 * The parse context of chunklog's own validation: issues worded in English as classic zod words
 * them, whether or not classic zod is loaded, unless the app configured zod's messages.
 *
 * @example
 * ```ts
 * const result = chunkEventMini.safeParse(value, PARSE_CONTEXT);
 * ```
 */
export const PARSE_CONTEXT: ParseContext<$ZodIssue> = { error: englishUnlessConfigured };
