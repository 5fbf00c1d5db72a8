import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { FollowSnapshot, WireEvent } from '@strand/protocol';
import { z } from 'zod';
import { origin } from './session-facts.js';
import type { StrandReader } from './reader.js';
import { StrandMcpError } from './errors.js';
import { textResult, toolCall } from './tool-result.js';
import { renderTranscript, type RenderedTranscript } from './transcript-text.js';

/** Events one window holds at most (the text bound may stop it earlier). */
export const MAX_WINDOW_EVENTS = 200;
const DEFAULT_LAST = 50;

/** The last `last` events, or seqs `fromSeq`…`toSeq` (both included). */
export type SessionWindow =
  | { readonly kind: 'last'; readonly last: number }
  | { readonly kind: 'range'; readonly fromSeq: number; readonly toSeq: number };

export function registerReadSession(server: McpServer, read: StrandReader): RegisteredTool {
  return server.registerTool(
    'read_session',
    {
      title: 'Read a Strand session',
      description: `A session's transcript as text, each event with its seq: the last N events (default ${DEFAULT_LAST}), or the seqs fromSeq…toSeq (both included). At most ${MAX_WINDOW_EVENTS} events per call; the answer ends with the exact arguments to read earlier or later events.`,
      inputSchema: {
        id: z.string().min(1).max(512).describe('session id (from list_sessions or search_sessions)'),
        last: z.number().int().min(1).max(MAX_WINDOW_EVENTS).optional().describe('the last N events'),
        fromSeq: z.number().int().min(0).optional().describe('first seq of a range'),
        toSeq: z.number().int().min(0).optional().describe('last seq of a range (default fromSeq + 99)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => toolCall(async () => textResult((await readTranscript(read, args.id, windowOf(args))).text)),
  );
}

function windowOf(args: {
  last?: number | undefined;
  fromSeq?: number | undefined;
  toSeq?: number | undefined;
}): SessionWindow {
  if (args.fromSeq === undefined && args.toSeq === undefined)
    return { kind: 'last', last: args.last ?? DEFAULT_LAST };
  if (args.last !== undefined)
    throw new StrandMcpError('CLI_MCP_ARGUMENTS_INVALID', 'give either last or fromSeq/toSeq, not both');
  const toSeq = args.toSeq ?? (args.fromSeq ?? 0) + 99;
  const fromSeq = args.fromSeq ?? Math.max(0, toSeq - 99);
  if (fromSeq > toSeq)
    throw new StrandMcpError('CLI_MCP_ARGUMENTS_INVALID', `fromSeq ${fromSeq} is after toSeq ${toSeq}`);
  return { kind: 'range', fromSeq, toSeq: Math.min(toSeq, fromSeq + MAX_WINDOW_EVENTS - 1) };
}

/**
 * One window of a session through the host API: a non-interactive follow (it never starts an
 * agent) gives the header, the log length and the title at one cut; a range is then paged.
 */
export async function readTranscript(
  read: StrandReader,
  id: string,
  window: SessionWindow,
): Promise<RenderedTranscript> {
  const { snapshot, events } = await read(async (c) => {
    const snap = await c.call('session.follow', {
      id,
      window: window.kind === 'last' ? window.last : 0,
    });
    await c.call('session.unfollow', { followId: snap.followId });
    if (window.kind === 'last') return { snapshot: snap, events: snap.events };
    const from = Math.min(window.fromSeq, snap.cursor);
    const to = Math.min(window.toSeq + 1, snap.cursor);
    const page =
      to > from
        ? await c.call('session.page', { id, fromSeq: from, toSeq: to, limit: to - from })
        : { events: [] as readonly WireEvent[] };
    return { snapshot: snap, events: page.events };
  });
  return renderTranscript({ id, cursor: snapshot.cursor, events, heading: heading(snapshot) });
}

function heading(snapshot: FollowSnapshot): string[] {
  const h = snapshot.header;
  const title = snapshot.baseline.values.title;
  return [
    `Session ${h.id}${typeof title === 'string' ? ` — ${JSON.stringify(title)}` : ''}`,
    `created ${new Date(h.createdAt).toISOString()}  project=${h.cwd === undefined ? '?' : JSON.stringify(h.cwd)}  from=${origin({ id: h.id, header: h })}`,
    `${snapshot.cursor} events${snapshot.busy ? ', a turn is running' : snapshot.live ? ', live' : ''}`,
    '',
  ];
}
