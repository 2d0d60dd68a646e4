import type { JSONValue } from '@ai-sdk/provider';
import { ChunklogError } from '../errors/index.js';
import { AI_SDK_FINISH_REASONS } from '../schema/usage.js';
import type { ScriptedFinishReason, ScriptedPart, ScriptedStep } from './script.js';

const finishReasons: readonly ScriptedFinishReason[] = AI_SDK_FINISH_REASONS;

function fail(line: number, message: string): never {
  throw new ChunklogError('invalid-option', `parseScript, line ${line}: ${message}`, {
    option: 'script',
    value: line,
  });
}

/** A text argument: a JSON string literal when it starts with `"`, else the rest of the line. */
function textArgument(rest: string, line: number): string {
  if (!rest.startsWith('"')) return rest;
  try {
    const value: unknown = JSON.parse(rest);
    if (typeof value === 'string') return value;
  } catch {
    // reported below
  }
  return fail(line, `expected a JSON string, got ${rest}`);
}

function status(rest: string, line: number): { statusCode: number; message?: string } {
  const match = /^(\d{3})(?:\s+(.*))?$/.exec(rest);
  if (!match) return fail(line, `expected an HTTP status code, got "${rest}"`);
  const statusCode = Number(match[1]);
  const message = match[2] === undefined ? undefined : textArgument(match[2], line);
  return message === undefined ? { statusCode } : { statusCode, message };
}

/**
 * Builds a script from a compact text description: one line per part, `---` between steps
 * (model calls). Blank lines and lines starting with `#` are ignored.
 *
 * | line | streams |
 * |---|---|
 * | `think <text>` | a reasoning block with an Anthropic-style signature |
 * | `redacted <data>` | a redacted thinking block |
 * | `text <text>` | a text block (split into word deltas) |
 * | `tool <name> <json>` / `tool <name>#<id> <json>` | a tool call with streamed input |
 * | `error <status> [message]` | an `error` part (mid-stream provider error) |
 * | `throw <status> [message]` | the stream breaks with an `APICallError` |
 * | `fail <status> [message]` | the call fails before streaming |
 * | `delay <ms>` | a pause |
 * | `finish <reason>` | the step's finish reason |
 *
 * A text argument that starts with `"` is read as a JSON string (for newlines and spaces at the
 * ends).
 *
 * @param description - the description
 * @returns the steps, one per model call
 * @throws {ChunklogError} `invalid-option`, naming the offending line (or the description, when
 *   it is not a string)
 *
 * @example
 * ```ts
 * const model = createScriptedModel(parseScript(`
 *   think I should read the file first.
 *   tool read_file {"path":"a.ts"}
 *   tool list_files {"dir":"."}
 *   ---
 *   text The file exports one function.
 * `));
 * ```
 */
export function parseScript(description: string): ScriptedStep[] {
  if (typeof description !== 'string') {
    throw new ChunklogError('invalid-option', 'parseScript: the description must be a string', {
      option: 'description',
      value: description,
    });
  }
  const steps: ScriptedStep[] = [];
  let parts: ScriptedPart[] = [];
  let finishReason: ScriptedFinishReason | undefined;
  let failure: ScriptedStep['fail'];
  let any = false;
  const close = () => {
    steps.push({
      parts,
      ...(finishReason !== undefined ? { finishReason } : {}),
      ...(failure !== undefined ? { fail: failure } : {}),
    });
    parts = [];
    finishReason = undefined;
    failure = undefined;
    any = false;
  };
  const lines = description.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    const trimmed = (lines[i] as string).trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    if (trimmed === '---') {
      close();
      continue;
    }
    any = true;
    const space = trimmed.indexOf(' ');
    const keyword = space === -1 ? trimmed : trimmed.slice(0, space);
    const rest = space === -1 ? '' : trimmed.slice(space + 1).trim();
    switch (keyword) {
      case 'think':
        parts.push({ type: 'reasoning', text: textArgument(rest, line) });
        break;
      case 'redacted':
        parts.push({ type: 'redacted-reasoning', data: rest });
        break;
      case 'text':
        parts.push({ type: 'text', text: textArgument(rest, line) });
        break;
      case 'tool': {
        const match = /^([^\s#]+)(?:#(\S+))?\s*(.*)$/.exec(rest);
        if (!match) return fail(line, 'expected `tool <name> <json>`');
        let input: JSONValue = {};
        if (match[3]) {
          try {
            input = JSON.parse(match[3]) as JSONValue;
          } catch {
            return fail(line, `the input of tool ${match[1]} is not JSON: ${match[3]}`);
          }
        }
        parts.push({
          type: 'tool-call',
          toolName: match[1] as string,
          input,
          ...(match[2] !== undefined ? { toolCallId: match[2] } : {}),
        });
        break;
      }
      case 'error':
        parts.push({ type: 'error', ...status(rest, line) });
        break;
      case 'throw':
        parts.push({ type: 'throw', ...status(rest, line) });
        break;
      case 'fail':
        failure = status(rest, line);
        break;
      case 'delay': {
        const ms = Number(rest);
        if (!Number.isFinite(ms) || ms < 0)
          return fail(line, `expected milliseconds, got "${rest}"`);
        parts.push({ type: 'delay', ms });
        break;
      }
      case 'finish':
        if (!finishReasons.includes(rest as ScriptedFinishReason)) {
          return fail(line, `unknown finish reason "${rest}"`);
        }
        finishReason = rest as ScriptedFinishReason;
        break;
      default:
        return fail(line, `unknown keyword "${keyword}"`);
    }
  }
  if (any) close();
  return steps;
}
