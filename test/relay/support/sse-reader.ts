// Reads server-sent events with fetch, as an EventSource would: frames with their id, event name
// and data.

/** One server-sent event. */
export interface SseFrame {
  readonly id: string | undefined;
  readonly event: string;
  readonly data: string;
}

/**
 * Opens `url` and calls `onFrame` for each event until it returns false (the connection is then
 * dropped) or the stream ends.
 *
 * @returns the response's `x-instance` header, and whether the stream ended by itself
 */
export async function readSse(
  url: string,
  headers: Record<string, string>,
  onFrame: (frame: SseFrame) => boolean,
): Promise<{ instance: string | null; status: number; ended: boolean }> {
  const abort = new AbortController();
  const response = await fetch(url, { headers, signal: abort.signal });
  const instance = response.headers.get('x-instance');
  if (response.status !== 200 || response.body === null) {
    await response.body?.cancel();
    return { instance, status: response.status, ended: true };
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { instance, status: 200, ended: true };
      buffer += value;
      let end = buffer.indexOf('\n\n');
      while (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
        let id: string | undefined;
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) id = line.slice(4);
          else if (line.startsWith('event: ')) event = line.slice(7);
          else if (line.startsWith('data: ')) data.push(line.slice(6));
        }
        if (data.length === 0) continue;
        if (!onFrame({ id, event, data: data.join('\n') })) {
          abort.abort();
          return { instance, status: 200, ended: false };
        }
      }
    }
  } catch (error) {
    if (abort.signal.aborted) return { instance, status: 200, ended: false };
    throw error;
  }
}
