import { defined } from '@strand/session';
/**
 * `@strand/import/harness-export`: a session written as another harness's transcript into that
 * harness's own folder, on this machine — the one writer `strand export --to` (on the CLI's
 * machine) and the host's `session.exportTo` (on the host's, through the runtime's port) share.
 * `@strand/export` renders the bytes (pure); this module files them: the folder by `harnessHome`
 * (the importers' rule), a target that is not Strand's untouched export refused, written whole
 * (temp file, fsync, rename), Gemini CLI's project registry claimed under its lock.
 */
import { ClaudeExportError, HarnessExportError, type ExportDocument } from '@strand/export';
import { harnessHome, type HomedHarness } from '../run/harness-home.js';
import { HarnessWriteError } from './errors.js';
import type { HarnessExport } from './export-file.js';
import { exportToClaude } from './to-claude.js';
import { exportToCodex } from './to-codex.js';
import { exportToGemini } from './to-gemini.js';
import { NO_SUBAGENTS, type SubagentExports } from './subagents.js';

export { HarnessWriteError, type HarnessWriteReason } from './errors.js';
export type { HarnessExport } from './export-file.js';
export { shellWord } from './shell-word.js';
export { writeWhole } from './write-whole.js';
export { NO_SUBAGENTS, type SubagentExports } from './subagents.js';
export type { HomedHarness } from '../run/harness-home.js';

/** Each harness's writer, given its folder (`~/.claude`, `~/.codex`, `~/.gemini`). */
const WRITERS: Readonly<
  Record<
    HomedHarness,
    (document: ExportDocument, dir: string, subagents: SubagentExports) => Promise<HarnessExport>
  >
> = {
  'claude-code': exportToClaude,
  codex: exportToCodex,
  gemini: exportToGemini,
};

export interface HarnessExportPlace {
  /** A home chosen explicitly (`--home`): the harness's folder under it, whatever the environment says. */
  readonly home?: string | undefined;
  /** The environment whose `HOME` and harness variables (`CLAUDE_CONFIG_DIR`…) place it (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Writes `document` as a `harness` transcript where that harness's own resume finds it, in the
 * folder `harnessHome` names for `place`. Same cut, same bytes (ids are derived); an existing
 * file is replaced only while it is still exactly Strand's last export of the session. Every
 * refusal is a `HarnessWriteError` (`not-ours`, `not-continuable`, `write-failed`). The
 * session's `subagents` go as the harness's own child files where it has them (Claude Code's
 * sidechains, listed in `children`), else they are named in `leftOut`.
 */
export async function writeHarnessExport(
  harness: HomedHarness,
  document: ExportDocument,
  place: HarnessExportPlace = {},
  subagents: SubagentExports = NO_SUBAGENTS,
): Promise<HarnessExport> {
  const dir = harnessHome(harness, {
    home: place.home,
    ...defined({ env: place.env }),
  });
  try {
    return await WRITERS[harness](document, dir, subagents);
  } catch (error) {
    if (error instanceof ClaudeExportError || error instanceof HarnessExportError)
      throw new HarnessWriteError('not-continuable', error.message, { cause: error });
    throw error;
  }
}
