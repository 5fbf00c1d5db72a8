import type { AvailableCommand } from '@agentclientprotocol/sdk';
import type { ModelCatalogEntry } from '@strand/protocol';
import { StrandAcpError } from './errors.js';

/**
 * The session-level command an imported session offers (ACP's available commands): the harness
 * that wrote the session owns it, so Strand never appends to it — but a fork is Strand's own.
 */
export const CONTINUE_COMMAND: AvailableCommand = {
  name: 'continue-in-strand-fork',
  description:
    "Continue in a Strand fork: fork this imported session at its last closed turn, on the host's default model",
};

/** Whether a prompt's text invokes the command (the editor sends it as `/name`). */
export function invokesContinue(text: string): boolean {
  const first = text.trim().split(/\s+/, 1)[0];
  return first === `/${CONTINUE_COMMAND.name}`;
}

/** The route a fork continues on: the entry the host marks as its default. */
export function defaultRoute(models: readonly ModelCatalogEntry[]): ModelCatalogEntry {
  const entry = models.find((model) => model.isDefault === true) ?? models[0];
  if (entry === undefined)
    throw new StrandAcpError('CLI_ACP_FAILED', 'the host lists no model to continue the fork on');
  return entry;
}

/** The refusal of a prompt to an imported session, saying what to do instead. */
export function readOnlyAdvice(id: string, harness: string, fork: string | undefined): string {
  const command = `/${CONTINUE_COMMAND.name}`;
  const instead =
    fork === undefined
      ? `run ${command} to continue it in a Strand fork`
      : `continue in its Strand fork ${fork} (load that session), or run ${command} for a new fork`;
  return `session ${id} is read-only: it was imported from ${harness}, which owns it; ${instead}`;
}
