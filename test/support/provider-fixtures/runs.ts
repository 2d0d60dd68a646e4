// The runs of ../shared/fixtures/ai-sdk-fixtures: every streaming fixture of the AI SDK's
// language-model providers (see the README there). A run is one `streamText` call: one file, or
// the files the README names as consecutive steps of one run. A file that holds several
// responses is split into one response per step (at `message_start` / `response.created` after
// the previous response ended).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SHARED_FIXTURES_DIR } from '../shared-fixtures.js';

/** Where the provider fixtures are. */
export const PROVIDER_FIXTURES_DIR: string = join(SHARED_FIXTURES_DIR, 'ai-sdk-fixtures');

/** One `streamText` call over recorded responses. */
export interface FixtureRun {
  /** The first file's path under the provider folder, without `.chunks.txt` (`responses/x.1`). */
  readonly name: string;
  /** The provider folder (`anthropic`, `amazon-bedrock`…). */
  readonly provider: string;
  /** The files of the run, relative to the fixtures folder, in step order. */
  readonly files: readonly string[];
  /** One list of recorded lines per model call (step). */
  readonly responses: readonly (readonly string[])[];
}

/** Files that are consecutive steps of one run (the README of the fixtures says which). */
const MULTI_FILE_RUNS: readonly (readonly string[])[] = [
  [1, 2, 3].map((n) => `openai/responses/programmatic-tool-calling.${n}.chunks.txt`),
  [1, 2].map((n) => `openai/responses/openai-client-tool-search.${n}.chunks.txt`),
  [1, 2].map((n) => `google/interactions/tool-call-step${n}.chunks.txt`),
];

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...listFiles(path));
    else if (entry.endsWith('.chunks.txt') || entry.endsWith('.sse')) out.push(path);
  }
  return out;
}

/** The non-blank lines of a fixture file. */
export function readLines(file: string): string[] {
  return readFileSync(join(PROVIDER_FIXTURES_DIR, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

function typeOf(line: string): unknown {
  try {
    return (JSON.parse(line) as { type?: unknown }).type;
  } catch {
    return undefined;
  }
}

const RESPONSE_START = new Set(['message_start', 'response.created']);
const RESPONSE_END = new Set([
  'message_stop',
  'response.completed',
  'response.incomplete',
  'response.failed',
]);

/** A file's responses: a new one starts where a start event follows an ended response. */
export function splitFile(file: string): string[][] {
  const lines = readLines(file);
  if (file.endsWith('.sse')) return [lines];
  const responses: string[][] = [[]];
  let ended = false;
  for (const line of lines) {
    const type = typeOf(line);
    if (ended && RESPONSE_START.has(type as string)) responses.push([]);
    ended ||= RESPONSE_END.has(type as string);
    if (RESPONSE_START.has(type as string)) ended = false;
    responses.at(-1)?.push(line);
  }
  return responses;
}

/** Every run of the fixture folder, in file order. */
export function fixtureRuns(): FixtureRun[] {
  const files = listFiles(PROVIDER_FIXTURES_DIR).map((f) => relative(PROVIDER_FIXTURES_DIR, f));
  const grouped = new Set(MULTI_FILE_RUNS.flat());
  const runs: FixtureRun[] = [];
  for (const file of files) {
    if (grouped.has(file) && !MULTI_FILE_RUNS.some((group) => group[0] === file)) continue;
    const group = MULTI_FILE_RUNS.find((g) => g[0] === file) ?? [file];
    const slash = file.indexOf('/');
    runs.push({
      name: file.slice(slash + 1).replace(/\.chunks\.txt$/, ''),
      provider: file.slice(0, slash),
      files: group,
      responses: group.flatMap(splitFile),
    });
  }
  return runs;
}
