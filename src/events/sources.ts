import type { Citation as AiCitation } from 'ai';
import type { Citation, Source } from '../schema/source.js';
import { jsonMetadata } from './json-safe.js';

/** A source as the AI SDK streams it (on a `source` part or in a citation). */
type AiSource = AiCitation['source'];

/**
 * Converts an AI SDK source (of a `source` part or a citation) to the schema's {@link Source},
 * dropping the SDK's redundant `type: 'source'` and keeping only JSON.
 *
 * @param source - the AI SDK source
 * @returns the JSON-safe source
 */
export function toSource(source: AiSource): Source {
  const providerMetadata = jsonMetadata(source.providerMetadata);
  if (source.sourceType === 'url') {
    return {
      sourceType: 'url',
      id: source.id,
      url: source.url,
      ...(source.title !== undefined && { title: source.title }),
      ...(providerMetadata && { providerMetadata }),
    };
  }
  return {
    sourceType: 'document',
    id: source.id,
    mediaType: source.mediaType,
    title: source.title,
    ...(source.filename !== undefined && { filename: source.filename }),
    ...(providerMetadata && { providerMetadata }),
  };
}

/**
 * Converts the citations of a `text-end` part to the schema's {@link Citation}s.
 *
 * @param citations - the part's citations
 * @returns JSON-safe citations, or undefined when there are none
 */
export function toCitations(citations: readonly AiCitation[] | undefined): Citation[] | undefined {
  if (citations === undefined || citations.length === 0) return undefined;
  return citations.map((citation) => ({
    source: toSource(citation.source),
    ...(isCount(citation.startIndex) && { startIndex: citation.startIndex + 0 }),
    ...(isCount(citation.endIndex) && { endIndex: citation.endIndex + 0 }),
    ...(citation.citedText !== undefined && { citedText: citation.citedText }),
  }));
}

// `+ 0` turns -0 (which JSON writes as 0) into 0.
function isCount(value: number | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
