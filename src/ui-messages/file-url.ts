/** Where a file chunk's content is: inline base64 `data`, or a `url`. */
export type FileLocation = { readonly data: string } | { readonly url: string };

/**
 * The URL of a file for a `UIMessage` part: a data URL for inline content.
 *
 * @param mediaType - the file's media type
 * @param location - its inline base64 content or its URL
 */
export function fileUrl(
  mediaType: string,
  location: { readonly data?: string | undefined; readonly url?: string | undefined },
): string {
  if (location.data !== undefined) return `data:${mediaType};base64,${location.data}`;
  return location.url ?? '';
}

/**
 * Where a `UIMessage` file part's content is, for a file chunk. A data URL becomes inline base64
 * only when {@link fileUrl} gives back exactly the same URL, so the conversion is lossless both ways.
 *
 * @param mediaType - the part's media type
 * @param url - the part's URL
 */
export function fileLocation(mediaType: string, url: string): FileLocation {
  const prefix = `data:${mediaType};base64,`;
  if (url.startsWith(prefix)) return { data: url.slice(prefix.length) };
  return { url };
}
