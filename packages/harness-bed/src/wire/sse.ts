import type { ServerResponse } from 'node:http';

/** One server-sent event; `event:` is written only for wires that name their events. */
export function sseEvent(data: unknown, event?: string): string {
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
}

/**
 * Called when an answer has streamed its first piece and holds (the interrupted-turn scenario):
 * resolves once the client has gone away.
 */
export type Held = (res: ServerResponse) => Promise<void>;
