import { request as httpRequest, type IncomingMessage } from 'node:http';

/** An HTTP answer as a test reads it: status, raw headers, the whole body as text. */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** Reads a response whole (also the refusal a WebSocket upgrade gets as `unexpected-response`). */
export function readAnswer(response: IncomingMessage): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    let body = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (body += chunk));
    response.once('error', reject);
    response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
  });
}

/**
 * A plain GET with exactly these headers. `fetch` would not do: it cannot set `Host` and it
 * normalizes the path, and the host's edge tests send both raw (a URL, or host, port and a raw path).
 */
export function rawGet(
  target: string | { readonly host: string; readonly port: number; readonly path: string },
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const answered = (response: IncomingMessage): void => void readAnswer(response).then(resolve, reject);
    const req =
      typeof target === 'string'
        ? httpRequest(target, { headers }, answered)
        : httpRequest({ ...target, headers }, answered);
    req.once('error', reject);
    req.end();
  });
}
