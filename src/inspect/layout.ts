// The page around every view: a header with the source and a search box, the time zone once.
import { timeZone } from './format.js';
import { html, type SafeHtml } from './html.js';

/** Options of {@link layout}. */
export interface LayoutOptions {
  /** Reload the page after this many seconds (a running turn), with no script. */
  readonly refreshSeconds?: number | undefined;
  /** The search box's text. */
  readonly query?: string | undefined;
}

/** The page around a body. */
export function layout(
  title: string,
  source: string,
  body: SafeHtml,
  options: LayoutOptions = {},
): SafeHtml {
  const refresh =
    options.refreshSeconds !== undefined
      ? html`<meta http-equiv="refresh" content="${options.refreshSeconds}">`
      : '';
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${refresh}
<title>${title} · chunklog inspect</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/inspector.css"></head>
<body><header><a href="/" class="brand">chunklog inspect</a> <span class="source">${source}</span>
<form class="search" action="/search" method="get" role="search"><input type="search" name="q" placeholder="Search text in every thread" aria-label="Search text" value="${options.query ?? ''}"></form>
<span class="ro" title="Times are in ${timeZone()}">read-only</span></header>
<main>${body}</main></body></html>`;
}

/** A short error page. */
export function errorPage(title: string, message: string): SafeHtml {
  return html`<h1>${title}</h1><p class="error">${message}</p><p><a href="/">threads</a></p>`;
}
