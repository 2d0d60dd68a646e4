import type { Citation as UICitation } from 'ai';
import type { Citation, Source } from '../schema/index.js';

/**
 * A chunklog citation as the AI SDK's (whose source carries `type: 'source'`).
 *
 * @param citation - a chunklog citation
 */
export function toUICitation(citation: Citation): UICitation {
  return { ...citation, source: { type: 'source', ...citation.source } } as UICitation;
}

/**
 * An AI SDK citation as chunklog's.
 *
 * @param citation - an AI SDK citation
 */
export function fromUICitation(citation: UICitation): Citation {
  const { type: _type, ...source } = citation.source;
  return { ...citation, source: source as Source } as Citation;
}
