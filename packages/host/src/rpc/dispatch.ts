import { defined } from '@strand/session';
import {
  METHODS,
  describeIssues,
  isMethodName,
  type MethodName,
  type RpcId,
  type Wire,
} from '@strand/protocol';
import { toWireError, wireError } from '../errors.js';
import { catalogsOf, requireListedModel, requireListedPreset } from '../methods/catalog-checks.js';
import { cancelCommand, appendCommand, createCommand, promptCommand } from '../methods/commands.js';
import { sessionAttachment, sessionFork } from '../methods/session-reads.js';
import { sessionExport, sessionExportTo } from '../methods/session-export.js';
import { sessionFollow } from '../methods/session-follow.js';
import { sessionList } from '../methods/session-list.js';
import { sessionPage } from '../methods/session-page.js';
import { subagentList } from '../methods/subagent-list.js';
import { usageSummary } from '../methods/usage-summary.js';
import type { FollowHub } from '../follow/follow-hub.js';
import type { Outbound } from '../follow/outbound.js';
import type { ListChangeFeed } from '../list/list-changes.js';
import type { HostLimits, ServedServices } from '../services.js';
import { HostError } from '../errors.js';
import { grantCovers } from '../share/share-scope.js';
import { notFoundForShare, shareRefusal, type ConnectionAccess } from '../share/share-gate.js';
import type { ShareService } from '../share/share-service.js';
import { sharedSearch, sharedSessionList } from '../share/shared-reads.js';
import type { HandlerResult } from './handler.js';
import { parseFrame } from './envelope.js';
import { sessionIdParamError } from './session-id-param.js';
import type { z } from 'zod';

/** A method's params as its protocol schema parses them (the one description of the wire). */
type Params<M extends MethodName> = z.output<(typeof METHODS)[M]['params']>;
/** A method's result as its protocol schema describes it (read-only: handlers hand out stored values). */
type Result<M extends MethodName> = Wire<(typeof METHODS)[M]['result']>;

export interface ConnectionContext {
  readonly services: ServedServices;
  readonly hub: FollowHub;
  readonly lists: ListChangeFeed;
  readonly limits: HostLimits;
  readonly out: Outbound;
  readonly signal: AbortSignal;
  /** Everything, or one share grant's reads (`share/share-gate.ts`). */
  readonly access: ConnectionAccess;
  readonly shares: ShareService;
  readonly now: () => number;
}

/** One method's handler: its parsed params in, its result (and any after-send work) out. */
type Handler<M extends MethodName> = (
  ctx: ConnectionContext,
  params: Params<M>,
) => Promise<HandlerResult<Result<M>>>;

function plain<R>(result: R): HandlerResult<R> {
  return { result };
}

/**
 * Every method's handler, one per name: the mapped type makes the compiler check each handler's
 * params and result against the method's schemas, and a method without a handler fail to compile.
 * Every method is a read, a follow, a catalog or a command.
 */
const HANDLERS: { readonly [M in MethodName]: Handler<M> } = {
  'session.list': async ({ services, limits, signal, access }, p) =>
    plain(
      access.kind === 'share'
        ? await sharedSessionList(services, limits, access.grant, p, signal)
        : await sessionList(services, limits, p, signal),
    ),
  'session.search': async ({ services, signal, access }, p) => {
    if (services.search === undefined)
      throw new HostError('HOST_SEARCH_UNAVAILABLE', 'this host has no search index');
    if (access.kind === 'share')
      return plain(
        await sharedSearch(
          services.search,
          (id) => grantCovers(access.grant, id, access.headerOf),
          p.query,
          {
            ...defined({ limit: p.limit, cwd: p.cwd, projectName: p.projectName, harness: p.harness }),
          },
          signal,
        ),
      );
    return plain(
      await services.search.search(p.query, {
        ...defined({
          limit: p.limit,
          cursor: p.cursor,
          cwd: p.cwd,
          projectName: p.projectName,
          harness: p.harness,
        }),
        signal,
      }),
    );
  },
  'session.follow': ({ services, hub, limits, out, signal }, p) =>
    sessionFollow(services, hub, limits, p, out, signal),
  'session.unfollow': ({ hub }, p) => {
    if (!hub.stop(p.followId))
      return Promise.reject(
        new HostError('HOST_FOLLOW_NOT_FOUND', `no follow ${p.followId} on this connection`),
      );
    return Promise.resolve(plain({ ok: true as const }));
  },
  'session.listSubscribe': ({ lists, out }, p) => {
    const subscriptionId = lists.subscribe(p, out);
    // Frames start once the id they carry is on the wire.
    return Promise.resolve({ result: { subscriptionId }, afterSend: () => lists.open(subscriptionId) });
  },
  'session.listUnsubscribe': ({ lists, out }, p) => {
    if (!lists.unsubscribe(p.subscriptionId, out))
      return Promise.reject(
        new HostError(
          'HOST_LIST_SUBSCRIPTION_NOT_FOUND',
          `no list subscription ${p.subscriptionId} on this connection`,
        ),
      );
    return Promise.resolve(plain({ ok: true as const }));
  },
  'session.page': async ({ services, signal }, p) => plain(await sessionPage(services, p, signal)),
  'session.attachment': async ({ services, signal }, p) =>
    plain(await sessionAttachment(services, p, signal)),
  'session.export': async ({ services, signal }, p) => plain(await sessionExport(services, p, signal)),
  'session.exportTo': async ({ services, signal }, p) => plain(await sessionExportTo(services, p, signal)),
  'session.fork': async ({ services, signal }, p) => plain(await sessionFork(services, p, signal)),
  'subagent.list': async ({ services, signal }, p) => plain(await subagentList(services, p, signal)),
  'session.create': async ({ services }, p) => plain(await createCommand(services, p)),
  'session.prompt': async ({ services, signal }, p) =>
    plain(await promptCommand(services, p.id, p.text, signal)),
  'session.cancel': async ({ services, signal }, p) => plain(await cancelCommand(services, p.id, signal)),
  'session.rename': async ({ services, signal }, p) =>
    plain(await appendCommand(services, p.id, { type: 'session/title', data: { title: p.title } }, signal)),
  'session.selectModel': async ({ services, signal }, p) => {
    const data = {
      provider: p.provider,
      model: p.model,
      ...defined({ reasoningEffort: p.reasoningEffort }),
    };
    return plain(
      await appendCommand(services, p.id, { type: 'model/selection', data }, signal, () =>
        requireListedModel(services, data),
      ),
    );
  },
  'session.selectPreset': async ({ services, signal }, p) =>
    plain(
      await appendCommand(
        services,
        p.id,
        { type: 'agent-preset/select', data: { preset: p.preset } },
        signal,
        () => requireListedPreset(services, p.preset),
      ),
    ),
  'usage.summary': async ({ services, signal }, p) => {
    const { bodyReads: _, ...summary } = await usageSummary(services, p, signal);
    return plain(summary);
  },
  'catalog.models': async ({ services }) => plain({ models: await catalogsOf(services).models() }),
  'catalog.presets': async ({ services }) => plain({ presets: await catalogsOf(services).presets() }),
  'share.create': async ({ shares }, p) => plain(await shares.create(p)),
  'share.list': async ({ shares }, p) => plain(await shares.list(p)),
  'share.revoke': async ({ shares }, p) => plain(await shares.revoke(p)),
};

/** Routes one validated request to its method's handler. */
function route<M extends MethodName>(
  ctx: ConnectionContext,
  method: M,
  params: Params<M>,
): Promise<HandlerResult<Result<M>>> {
  const handler: Handler<M> = HANDLERS[method];
  return handler(ctx, params);
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
    if (ctx.access.kind === 'share') {
      const refusal = await shareRefusal(ctx.access, method, parsed.data, ctx.now());
      if (refusal !== undefined) return errorReply(id, refusal);
    }
    const handled = await route(ctx, method, parsed.data);
    return {
      text: JSON.stringify({ jsonrpc: '2.0', id, result: handled.result }),
      ...defined({ afterSend: handled.afterSend }),
    };
  } catch (error) {
    const wire = toWireError(error);
    if (wire.data.code === 'RPC_INTERNAL_ERROR')
      ctx.services.logger.error('a method failed unexpectedly', { method, error });
    // A share connection sees one form of "not found", whatever the read below said beside it.
    if (ctx.access.kind === 'share' && wire.data.code === 'SESSION_QUERY_NOT_FOUND')
      return errorReply(id, notFoundForShare(String((parsed.data as { id?: unknown }).id)));
    return errorReply(id, wire);
  }
}

export function errorReply(id: RpcId | null, error: ReturnType<typeof wireError>): Reply {
  return { text: JSON.stringify({ jsonrpc: '2.0', id, error }) };
}
