import { z } from 'zod';
import { type ProviderMetadata, ProviderMetadataSchema } from './json.js';

/** A web page the model used, as the AI SDK's `source` part describes it. */
export interface UrlSource {
  readonly sourceType: 'url';
  /** The provider's id for the source. */
  readonly id: string;
  readonly url: string;
  readonly title?: string | undefined;
  readonly providerMetadata?: ProviderMetadata | undefined;
}

/** A document the model used, as the AI SDK's `source` part describes it. */
export interface DocumentSource {
  readonly sourceType: 'document';
  /** The provider's id for the source. */
  readonly id: string;
  readonly mediaType: string;
  readonly title: string;
  readonly filename?: string | undefined;
  readonly providerMetadata?: ProviderMetadata | undefined;
}

/** A source the model used: a URL or a document. */
export type Source = UrlSource | DocumentSource;

const urlSourceShape = {
  sourceType: z.literal('url'),
  id: z.string(),
  url: z.string(),
  title: z.string().optional(),
  providerMetadata: ProviderMetadataSchema.optional(),
};

const documentSourceShape = {
  sourceType: z.literal('document'),
  id: z.string(),
  mediaType: z.string(),
  title: z.string(),
  filename: z.string().optional(),
  providerMetadata: ProviderMetadataSchema.optional(),
};

/** Zod schema of a {@link Source}. */
export const SourceSchema: z.ZodType<Source> = z.discriminatedUnion('sourceType', [
  z.object(urlSourceShape),
  z.object(documentSourceShape),
]);

/**
 * A citation that supports a passage of text (the AI SDK's `Citation`, carried on `text-end`).
 */
export interface Citation {
  /** The referenced URL or document. */
  readonly source: Source;
  /** Start offset in the cited text block, when the provider gives one. */
  readonly startIndex?: number | undefined;
  /** Exclusive end offset in the cited text block, when the provider gives one. */
  readonly endIndex?: number | undefined;
  /** The supporting passage from the source, when the provider gives one. */
  readonly citedText?: string | undefined;
}

/** Zod schema of a {@link Citation}. */
export const CitationSchema: z.ZodType<Citation> = z.object({
  source: SourceSchema,
  startIndex: z.number().optional(),
  endIndex: z.number().optional(),
  citedText: z.string().optional(),
});
