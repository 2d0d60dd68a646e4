// Reading an inspector's page in a test: the request a browser on the served host sends.
import { createInspector, type InspectorOptions } from '../../src/inspect/inspector.js';
import type { InspectedStore } from '../../src/inspect/reads.js';
import { inspectorHosts } from '../../src/inspect/serve.js';

/**
 * GETs `path` from an inspector over `store`, served on 127.0.0.1:4000 and asked for by its
 * `localhost:4000` name.
 *
 * @returns the answer's status and HTML
 */
export async function inspectorGet(
  store: InspectedStore,
  path: string,
  options: Partial<InspectorOptions> = {},
): Promise<{ status: number; text: string }> {
  const handler = createInspector(store, {
    source: 'test.db',
    hosts: inspectorHosts('127.0.0.1', 4000),
    ...options,
  });
  const response = await handler(
    new Request(`http://inspector.invalid${path}`, { headers: { host: 'localhost:4000' } }),
  );
  return { status: response.status, text: await response.text() };
}
