import { METHODS, describeIssues, isMethodName, type MethodName, type RpcId } from '@strand/protocol';
import { toWireError, wireError } from '../errors.js';
import { requireListedModel, requireListedPreset } from '../methods/catalog-checks.js';
import { cancelCommand, appendCommand, createCommand, promptCommand } from '../methods/commands.js';
import { sessionAttachment, sessionFork } from '../methods/session-reads.js';
import { sessionFollow } from '../methods/session-follow.js';
import { sessionList } from '../methods/session-list.js';
import { sessionPage } from '../methods/session-page.js';
import { subagentList } from '../methods/subagent-list.js';
import { usageSummary } from '../methods/usage-summary.js';
import type { FollowHub } from '../follow/follow-hub.js';
import type { Outbound } from '../follow/outbound.js';
import type { HostLimits, HostServices } from '../services.js';
import { HostError } from '../errors.js';
import type { HandlerResult } from './handler.js';
import { parseFrame } from './envelope.js';
import { sessionIdParamError } from './session-id-param.js';
import type { z } from 'zod';
import { silentLogger } from '@strand/session';

/** A method's params as its protocol schema parses them (the one description of the wire). */
type Params<M extends MethodName> = z.output<(typeof METHODS)[M]['params']>;

export interface ConnectionContext {
  readonly services: HostServices;
  readonly hub: FollowHub;
  readonly limits: HostLimits;
  readonly out: Outbound;
  readonly signal: AbortSignal;
}

function plain<R>(result: R): HandlerResult<R> {
  return { result };
}

/** Routes one validated request; every method is a read, a follow, a catalog or a command. */
async function route<M extends MethodName>(
  ctx: ConnectionContext,
  method: M,
  params: Params<M>,
): Promise<HandlerResult> {
  const { services, signal } = ctx;
  switch (method) {
    case 'session.list':
      return plain(await sessionList(services, ctx.limits, params as Params<'session.list'>, signal));
    case 'session.search': {
      const p = params as Params<'session.search'>;
      if (services.search === undefined)
        throw new HostError('HOST_SEARCH_UNAVAILABLE', 'this host has no search index');
      return plain(
        await services.search.search(p.query, {
          ...(p.limit === undefined ? {} : { limit: p.limit }),
          ...(p.cursor === undefined ? {} : { cursor: p.cursor }),
          ...(p.cwd === undefined ? {} : { cwd: p.cwd }),
          ...(p.harness === undefined ? {} : { harness: p.harness }),
          signal,
        }),
      );
    }
    case 'session.follow':
      return sessionFollow(
        services,
        ctx.hub,
        ctx.limits,
        params as Params<'session.follow'>,
        ctx.out,
        signal,
      );
    case 'session.unfollow': {
      const p = params as Params<'session.unfollow'>;
      if (!ctx.hub.stop(p.followId))
        throw new HostError('HOST_FOLLOW_NOT_FOUND', `no follow ${p.followId} on this connection`);
      return plain({ ok: true });
    }
    case 'session.page':
      return plain(await sessionPage(services, params as Params<'session.page'>, signal));
    case 'session.attachment':
      return plain(await sessionAttachment(services, params as Params<'session.attachment'>, signal));
    case 'session.fork':
      return plain(await sessionFork(services, params as Params<'session.fork'>, signal));
    case 'subagent.list':
      return plain(await subagentList(services, params as Params<'subagent.list'>, signal));
    case 'session.create':
      return plain(await createCommand(services, params as Params<'session.create'>));
    case 'session.prompt': {
      const p = params as Params<'session.prompt'>;
      return plain(await promptCommand(services, p.id, p.text, signal));
    }
    case 'session.cancel':
      return plain(await cancelCommand(services, (params as Params<'session.cancel'>).id, signal));
    case 'session.rename': {
      const p = params as Params<'session.rename'>;
      return plain(
        await appendCommand(services, p.id, { type: 'session/title', data: { title: p.title } }, signal),
      );
    }
    case 'session.selectModel': {
      const p = params as Params<'session.selectModel'>;
      const data = {
        provider: p.provider,
        model: p.model,
        ...(p.reasoningEffort === undefined ? {} : { reasoningEffort: p.reasoningEffort }),
      };
      return plain(
        await appendCommand(services, p.id, { type: 'model/selection', data }, signal, () =>
          requireListedModel(services, data),
        ),
      );
    }
    case 'session.selectPreset': {
      const p = params as Params<'session.selectPreset'>;
      return plain(
        await appendCommand(
          services,
          p.id,
          { type: 'agent-preset/select', data: { preset: p.preset } },
          signal,
          () => requireListedPreset(services, p.preset),
        ),
      );
    }
    case 'usage.summary': {
      const { bodyReads: _, ...summary } = await usageSummary(
        services,
        params as Params<'usage.summary'>,
        signal,
      );
      return plain(summary);
    }
    case 'catalog.models':
      if (services.catalogs === undefined)
        throw new HostError('HOST_CATALOG_UNAVAILABLE', 'no model catalog');
      return plain({ models: await services.catalogs.models() });
    case 'catalog.presets':
      if (services.catalogs === undefined)
        throw new HostError('HOST_CATALOG_UNAVAILABLE', 'no preset catalog');
      return plain({ presets: await services.catalogs.presets() });
    default: {
      const exhaustive: never = method;
      throw new Error(`unrouted method ${String(exhaustive)}`);
    }
  }
}

export type Reply = { readonly text: string; readonly afterSend?: () => void };

/**
 * Handles one text frame and produces the reply. Never throws: every failure becomes a typed
 * JSON-RPC error, so one bad request cannot take the connection (or the host) down.
 */
export async function handleFrame(ctx: ConnectionContext, text: string): Promise<Reply> {
  const frame = parseFrame(text);
  if (frame.kind === 'invalid')
    return { text: JSON.stringify({ jsonrpc: '2.0', id: frame.id, error: frame.error }) };
  const { id, method } = frame;
  if (!isMethodName(method)) return errorReply(id, wireError('RPC_METHOD_NOT_FOUND', `no method ${method}`));
  const parsed = METHODS[method].params.safeParse(frame.params);
  if (!parsed.success) {
    const why = describeIssues(parsed.error, '(params)');
    return errorReply(id, wireError('RPC_INVALID_PARAMS', `invalid params for ${method}: ${why}`));
  }
  const idError = sessionIdParamError(ctx.services, parsed.data);
  if (idError !== undefined) return errorReply(id, idError);
  try {
    const handled = await route(ctx, method, parsed.data);
    return {
      text: JSON.stringify({ jsonrpc: '2.0', id, result: handled.result }),
      ...(handled.afterSend === undefined ? {} : { afterSend: handled.afterSend }),
    };
  } catch (error) {
    const wire = toWireError(error);
    if (wire.data.code === 'RPC_INTERNAL_ERROR')
      (ctx.services.logger ?? silentLogger).error('a method failed unexpectedly', { method, error });
    return errorReply(id, wire);
  }
}

export function errorReply(id: RpcId | null, error: ReturnType<typeof wireError>): Reply {
  return { text: JSON.stringify({ jsonrpc: '2.0', id, error }) };
}
