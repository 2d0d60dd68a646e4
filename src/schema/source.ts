import type { ZodType } from 'zod';
import * as z from 'zod/mini';
import { classicView } from './classic-view.js';
import { type ProviderMetadata, providerMetadataMini } from './json.js';

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
  title: z.optional(z.string()),
  providerMetadata: z.optional(providerMetadataMini),
};

const documentSourceShape = {
  sourceType: z.literal('document'),
  id: z.string(),
  mediaType: z.string(),
  title: z.string(),
  filename: z.optional(z.string()),
  providerMetadata: z.optional(providerMetadataMini),
};

/** The `zod/mini` schema of a {@link Source}. */
export const sourceMini: z.ZodMiniType<Source> = z.discriminatedUnion('sourceType', [
  z.object(urlSourceShape),
  z.object(documentSourceShape),
]);

/** Zod schema of a {@link Source}. */
export const SourceSchema: ZodType<Source> = /* @__PURE__ */ classicView(sourceMini);

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

/** The `zod/mini` schema of a {@link Citation}. */
export const citationMini: z.ZodMiniType<Citation> = z.object({
  source: sourceMini,
  startIndex: z.optional(z.number()),
  endIndex: z.optional(z.number()),
  citedText: z.optional(z.string()),
});

/** Zod schema of a {@link Citation}. */
export const CitationSchema: ZodType<Citation> = /* @__PURE__ */ classicView(citationMini);
