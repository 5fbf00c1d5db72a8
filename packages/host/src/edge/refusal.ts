import { STATUS_CODES, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RpcErrorObject } from '@strand/protocol';

/**
 * Refusals before any WebSocket exists are plain HTTP answers whose JSON body carries the same
 * typed error a frame would (`{"error": {code, message, data: {code}}}`), so a client that can
 * read the response (the CLI, `ws`) reports the stable code; a browser sees only the status.
 */
export function refuseUpgrade(
  socket: Duplex,
  status: number,
  error: RpcErrorObject,
  headers: Readonly<Record<string, string>> = {},
): void {
  const body = JSON.stringify({ error });
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'connection: close',
    'content-type: application/json',
    `content-length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

export function refuseRequest(
  response: ServerResponse,
  status: number,
  error: RpcErrorObject,
  headers: OutgoingHttpHeaders = {},
): void {
  response
    .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers })
    .end(JSON.stringify({ error }));
}
