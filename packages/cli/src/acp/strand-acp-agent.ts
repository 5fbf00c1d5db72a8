import {
  agent,
  PROTOCOL_VERSION,
  type AgentApp,
  type AgentContext,
  type SessionConfigOption,
  type SessionModeState,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import type { StrandConnection } from '@strand/client';
import {
  StrandRpcError,
  type ModelCatalogEntry,
  type ProjectionValueMap,
  type WireEvent,
} from '@strand/protocol';
import { eventUpdates } from './event-updates.js';
import { StrandAcpError, toAcpError } from './errors.js';
import { promptText } from './prompt-text.js';
import { acpSessionPage, hostListParams } from './session-list.js';
import { CONTINUE_COMMAND, defaultRoute, invokesContinue, readOnlyAdvice } from './continue-fork.js';
import { SessionFeed } from './session-feed.js';
import { MODEL_OPTION, modelOption, modelValue, presetOfMode, sessionModes } from './session-config.js';
import { TurnWatch } from './turn-watch.js';
import { problemLine } from '../problem-line.js';

interface OpenSession {
  readonly feed: SessionFeed;
  turn: TurnWatch | undefined;
  /** The seq of the last `turn/end` delivered: where a fork continues from. */
  lastTurnEnd: number | undefined;
}

/**
 * The ACP agent over one Strand host connection. The ACP `sessionId` *is* the Strand session id;
 * everything a session shows comes from its log through `SessionFeed` and `eventUpdates`, and
 * every change goes through the host's commands (`session.create/prompt/cancel/select*`), so an
 * editor is one more client of the same sessions the web UI follows.
 *
 * Updates are written on one promise chain, in the order the log has them; a prompt or load
 * answers only after the updates before its answer were written.
 */
export class StrandAcpAgent {
  readonly #connection: StrandConnection;
  readonly #version: string;
  /** The folder `strand acp` runs in: where a session that recorded none is listed (ACP needs one). */
  readonly #folder: string;
  readonly #sessions = new Map<string, OpenSession>();
  /** Imported session → the Strand fork `/continue-in-strand-fork` made of it on this connection. */
  readonly #forks = new Map<string, string>();
  #client: AgentContext | undefined;
  #sent: Promise<void> = Promise.resolve();

  constructor(connection: StrandConnection, version: string, folder: string) {
    this.#connection = connection;
    this.#version = version;
    this.#folder = folder;
    // A lost host takes its running turns with it (its crash repair closes them `interrupted`);
    // a prompt waiting on one fails now instead of waiting on a `turn/end` that may never come.
    // The feeds re-follow once the connection is back, so the sessions stay usable.
    connection.onStateChange((state) => {
      if (state !== 'reconnecting') return;
      for (const [id, session] of this.#sessions)
        session.turn?.fail(
          new StrandAcpError(
            'CLI_ACP_HOST_LOST',
            `the connection to the host running ${id} was lost mid-turn`,
          ),
        );
    });
  }

  app(): AgentApp {
    return agent({ name: 'strand' })
      .onConnect((connection) => {
        this.#client = connection.client;
      })
      .onRequest('initialize', () => ({
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          sessionCapabilities: { list: {} },
          promptCapabilities: { image: false, audio: false, embeddedContext: true },
        },
        agentInfo: { name: 'strand', title: 'Strand', version: this.#version },
        authMethods: [],
      }))
      .onRequest('session/new', ({ params }) =>
        this.#guard(async () => {
          const { id } = await this.#connection.call('session.create', { cwd: params.cwd });
          await this.#open(id, 0);
          return { sessionId: id, ...(await this.#config(id)) };
        }),
      )
      .onRequest('session/load', ({ params }) =>
        this.#guard(async () => {
          // A load replays the whole log, from seq 0, before it answers (ACP's contract).
          await this.#open(params.sessionId, 0);
          // An imported session offers its one way to go on: a Strand fork (before the answer).
          if (this.#session(params.sessionId).feed.header?.source !== undefined)
            this.#send(params.sessionId, {
              sessionUpdate: 'available_commands_update',
              availableCommands: [CONTINUE_COMMAND],
            });
          await this.#sent;
          return this.#config(params.sessionId);
        }),
      )
      .onRequest('session/list', ({ params }) =>
        this.#guard(async () =>
          acpSessionPage(await this.#connection.call('session.list', hostListParams(params)), this.#folder),
        ),
      )
      .onRequest('session/prompt', ({ params, signal }) =>
        this.#guard(() => this.#prompt(params.sessionId, promptText(params.prompt), signal)),
      )
      .onNotification('session/cancel', ({ params }) => this.#cancel(params.sessionId))
      .onRequest('session/set_mode', ({ params }) =>
        this.#guard(async () => {
          this.#session(params.sessionId);
          await this.#connection.call('session.selectPreset', {
            id: params.sessionId,
            preset: presetOfMode(params.modeId),
          });
          return {};
        }),
      )
      .onRequest('session/set_config_option', ({ params }) =>
        this.#guard(async () => {
          const session = this.#session(params.sessionId);
          const { models } = await this.#connection.call('catalog.models', {});
          const entry = chosenModel(params.configId, params.value, models);
          await this.#connection.call('session.selectModel', {
            id: params.sessionId,
            provider: entry.provider,
            model: entry.model,
          });
          // The projection of the selection arrives later on the follow; the answer states it now.
          const values = { ...session.feed.values, modelSelection: { pending: entry, lastRequest: null } };
          return { configOptions: modelOption(models, values) };
        }),
      );
  }

  /** Stops following every session (the connection itself belongs to the caller). */
  close(): void {
    for (const session of this.#sessions.values()) session.feed.close();
    this.#sessions.clear();
  }

  async #guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw toAcpError(error);
    }
  }

  async #open(id: string, fromSeq: number): Promise<void> {
    this.#sessions.get(id)?.feed.close();
    this.#sessions.delete(id);
    // Events delivered while the feed opens (a load's replay) come before the session exists.
    const entry: { session?: OpenSession; lastTurnEnd?: number } = {};
    const feed = await SessionFeed.open(
      this.#connection,
      id,
      fromSeq,
      (event) => {
        if (event.type === 'turn/end') {
          entry.lastTurnEnd = event.seq;
          if (entry.session !== undefined) entry.session.lastTurnEnd = event.seq;
        }
        this.#deliver(id, entry.session, event);
      },
      (error) => {
        console.error(problemLine(`following ${id} failed`, error));
        entry.session?.turn?.fail(error);
      },
    );
    entry.session = { feed, turn: undefined, lastTurnEnd: entry.lastTurnEnd };
    this.#sessions.set(id, entry.session);
  }

  #deliver(id: string, session: OpenSession | undefined, event: WireEvent): void {
    const updates = session?.turn?.observe(event) ?? eventUpdates(event, 'history');
    for (const update of updates) this.#send(id, update);
  }

  #send(sessionId: string, update: SessionUpdate): void {
    const client = this.#client;
    if (client === undefined) return;
    this.#sent = this.#sent
      .then(() => client.notify('session/update', { sessionId, update }))
      .catch((error: unknown) =>
        console.error(problemLine('an ACP session update could not be sent', error)),
      );
  }

  #session(id: string): OpenSession {
    const session = this.#sessions.get(id);
    if (session === undefined)
      throw new StrandAcpError(
        'CLI_ACP_SESSION_NOT_OPEN',
        `session ${id} is not open on this connection: call session/new or session/load first`,
      );
    return session;
  }

  async #prompt(
    id: string,
    text: string,
    signal: AbortSignal,
  ): Promise<{ stopReason: 'end_turn' | 'cancelled' | 'max_tokens' | 'max_turn_requests' | 'refusal' }> {
    const session = this.#session(id);
    if (session.turn !== undefined)
      throw new StrandAcpError('CLI_ACP_PROMPT_RUNNING', `a prompt is already running on ${id}`);
    if (text.trim() === '')
      throw new StrandAcpError('CLI_ACP_PROMPT_EMPTY', 'the prompt holds no text Strand can send');
    const source = session.feed.header?.source;
    if (source !== undefined && invokesContinue(text)) return this.#continueInFork(id, session);
    // Everything already queued is someone else's past; the turn starts at or after this seq.
    await session.feed.settled();
    const turn = new TurnWatch(session.feed.nextSeq);
    session.turn = turn;
    const onAbort = (): void => this.#cancel(id);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      try {
        await this.#connection.call('session.prompt', { id, text });
      } catch (error) {
        throw readOnlyRefusal(error, id, source?.harness, this.#forks.get(id));
      }
      if (turn.cancelRequested) this.#cancel(id);
      const outcome = await turn.outcome;
      await session.feed.whenIdle();
      await this.#sent;
      if (outcome.kind === 'failed') throw new StrandAcpError('CLI_ACP_TURN_FAILED', outcome.message);
      return { stopReason: outcome.stopReason };
    } finally {
      signal.removeEventListener('abort', onAbort);
      session.turn = undefined;
    }
  }

  /**
   * `/continue-in-strand-fork` on an imported session: forks it at its last closed turn, selects
   * the host's default model on the fork (the imported session's own model is its harness's, not
   * this host's), and says in the session which fork to load. The fork is an ordinary Strand
   * session: the editor loads it from its history (`session/list`) and prompts it there.
   */
  async #continueInFork(id: string, session: OpenSession): Promise<{ stopReason: 'end_turn' }> {
    const atSeq = session.lastTurnEnd;
    if (atSeq === undefined)
      throw new StrandAcpError('CLI_ACP_FAILED', `session ${id} has no closed turn to fork at`);
    const { id: fork } = await this.#connection.call('session.fork', { id, atSeq });
    const { models } = await this.#connection.call('catalog.models', {});
    const route = defaultRoute(models);
    await this.#connection.call('session.selectModel', {
      id: fork,
      provider: route.provider,
      model: route.model,
    });
    this.#forks.set(id, fork);
    this.#send(id, {
      sessionUpdate: 'agent_message_chunk',
      content: {
        type: 'text',
        text: `Forked as ${fork} at the end of its last turn (seq ${atSeq}), on ${route.label}. Load that session to continue it in Strand.`,
      },
    });
    await this.#sent;
    return { stopReason: 'end_turn' };
  }

  #cancel(id: string): void {
    const turn = this.#sessions.get(id)?.turn;
    if (turn === undefined) return;
    turn.cancelRequested = true;
    // The turn's `turn/end` (reason `aborted`) answers the prompt with `cancelled`.
    this.#connection
      .call('session.cancel', { id })
      .catch((error: unknown) => console.error(problemLine(`cancelling ${id} failed`, error)));
  }

  async #config(id: string): Promise<{ modes: SessionModeState; configOptions: SessionConfigOption[] }> {
    const [{ presets }, { models }] = await Promise.all([
      this.#connection.call('catalog.presets', {}),
      this.#connection.call('catalog.models', {}),
    ]);
    const values: ProjectionValueMap = this.#sessions.get(id)?.feed.values ?? {};
    return { modes: sessionModes(presets, values), configOptions: modelOption(models, values) };
  }
}

function chosenModel(
  configId: string,
  value: unknown,
  models: readonly ModelCatalogEntry[],
): ModelCatalogEntry {
  const entry = configId === MODEL_OPTION ? models.find((m) => modelValue(m) === value) : undefined;
  if (entry === undefined)
    throw new StrandAcpError(
      'CLI_ACP_CONFIG_INVALID',
      configId === MODEL_OPTION
        ? `model ${String(value)} is not in this host's catalog`
        : `no config option ${configId} (this agent offers only ${MODEL_OPTION})`,
    );
  return entry;
}

/** A host refusal as read-only, re-worded to say what to do instead; any other error unchanged. */
function readOnlyRefusal(
  error: unknown,
  id: string,
  harness: string | undefined,
  fork: string | undefined,
): unknown {
  if (!(error instanceof StrandRpcError) || error.code !== 'SESSION_READ_ONLY' || harness === undefined)
    return error;
  return new StrandRpcError(error.code, error.rpcCode, readOnlyAdvice(id, harness, fork), error.data);
}
