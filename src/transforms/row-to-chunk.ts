import type { ChatRole } from '../schema/chat-message.js';
import type { Chunk } from '../schema/chunk.js';
import type { GroupableRow } from './row-input.js';

/** Which message a non-result row joins: steering and tool rows join the assistant message. */
export function chatRoleOf(row: GroupableRow): ChatRole {
  switch (row.role) {
    case 'user':
      return row.type === 'steering' ? 'assistant' : 'user';
    case 'system':
      return 'system';
    default:
      return 'assistant';
  }
}

/** The chunk a non-tool row holds: its data with its `type` and `step` back. */
export function toChunk(row: Exclude<GroupableRow, { type: 'tool_call' | 'tool_result' }>): Chunk {
  const step = row.step;
  switch (row.type) {
    case 'text':
      return { type: 'text', step, ...row.data };
    case 'thinking':
      return { type: 'thinking', step, ...row.data };
    case 'error':
      return { type: 'error', step, ...row.data };
    case 'system':
      return { type: 'system', step, ...row.data };
    case 'source':
      return { type: 'source', step, ...row.data };
    case 'file':
      return { type: 'file', step, ...row.data };
    case 'custom':
      return { type: 'custom', step, ...row.data };
    case 'steering':
      return { type: 'steering', step, ...row.data };
    case 'data':
      return { type: 'data', step, ...row.data };
    default: {
      const never: never = row;
      return never;
    }
  }
}
