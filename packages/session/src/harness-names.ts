import { z } from 'zod';

/*
 * A harness's name — a header's `source.harness`, a search or usage filter — is an open
 * vocabulary: a newer importer writes names an older host has never heard of, and that host must
 * still read the log and list the session (as "opencode", unlabelled) rather than call it corrupt.
 * Only the shape is fixed — lowercase letters, digits and inner hyphens, as people type them on a
 * command line — so a name is safe in a URL, a filter menu and an id prefix.
 */
export const HARNESS_NAME_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

/** What a filter names for sessions of no other harness: Strand's own (never a header's source). */
export const STRAND_HARNESS = 'strand';

export const harnessNameSchema = z
  .string()
  .regex(HARNESS_NAME_PATTERN, 'must be a harness name (lowercase letters, digits and hyphens)');

/**
 * The harness a session belongs to, as filters and facets name it: its importer's
 * `source.harness`, or `strand` for a session Strand itself ran (a header without a `source`).
 * Structural, so a list row or a search hit that carries only `source` answers too.
 */
export function sessionHarness(header: {
  readonly source?: { readonly harness: string } | undefined;
}): string {
  return header.source?.harness ?? STRAND_HARNESS;
}

/** A harness a filter narrows by: any harness name, `strand` included. */
export function isHarnessName(value: unknown): value is string {
  return typeof value === 'string' && HARNESS_NAME_PATTERN.test(value);
}

/**
 * The names people know each harness by: the one label map (web badges and menus, the CLI's
 * choices for `--harness`, MCP's descriptions). It lists the harnesses this build knows; a name
 * missing here is shown as it is.
 */
export const HARNESS_LABELS: Readonly<Record<string, string>> = Object.freeze({
  [STRAND_HARNESS]: 'Strand',
  'claude-code': 'Claude Code',
  codex: 'Codex',
  gemini: 'Gemini CLI',
  pi: 'pi',
  aider: 'Aider',
  opencode: 'opencode',
  qwen: 'Qwen Code',
  crush: 'Crush',
  copilot: 'GitHub Copilot CLI',
  goose: 'goose',
  openhands: 'OpenHands',
  kilo: 'Kilo Code',
  cline: 'Cline',
  roo: 'Roo Code',
  cursor: 'Cursor',
});

/** The harnesses filter menus and CLI choices offer, Strand first. */
export const KNOWN_HARNESSES: readonly string[] = Object.freeze(Object.keys(HARNESS_LABELS));

/** The name a person knows `harness` by, or the name itself for one this build does not know. */
export function harnessLabel(harness: string): string {
  return Object.hasOwn(HARNESS_LABELS, harness) ? HARNESS_LABELS[harness]! : harness;
}
