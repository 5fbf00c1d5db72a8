import type { HarnessImporter, SessionPeek, SourceUnit } from '../run/harness-importer.js';
import type { Harness } from '../types.js';

/**
 * Test helpers over the committed fixtures of this package (never /work/shared/fixtures/real, which
 * may be absent): the laws that must hold for every transcript shape (the prefix law, the
 * incremental mapping) run over this one list, so a new fixture folder is added once.
 */
export const COMMITTED_FIXTURE_SETS: readonly {
  readonly harness: Harness;
  readonly dir: string;
  /** `false`: whole-JSON files rewritten on every save, mapped whole on every change (no fold). */
  readonly foldable?: false;
}[] = [
  { harness: 'claude-code', dir: 'claude-code/fixtures/subagents-layout' },
  { harness: 'claude-code', dir: 'claude-code/fixtures/flat-2.0' },
  { harness: 'claude-code', dir: 'claude-code/fixtures/inline-1.0' },
  { harness: 'claude-code', dir: 'claude-code/fixtures/damaged' },
  { harness: 'codex', dir: 'codex/fixtures/spawn-fork' },
  { harness: 'codex', dir: 'codex/fixtures/spawn-tree' },
  { harness: 'gemini', dir: 'gemini/fixtures/rewind' },
  { harness: 'gemini', dir: 'gemini/fixtures/a2a' },
  { harness: 'gemini', dir: 'gemini/fixtures/delegate' },
  { harness: 'gemini', dir: 'gemini/fixtures/bed-0.61.0' },
  { harness: 'pi', dir: 'pi/fixtures/tree' },
  { harness: 'pi', dir: 'pi/fixtures/v1' },
  { harness: 'pi', dir: 'pi/fixtures/fork' },
  { harness: 'pi', dir: 'pi/fixtures/damaged' },
  { harness: 'pi', dir: 'pi/fixtures/bed-0.73.1' },
  { harness: 'aider', dir: 'aider/fixtures/synthetic' },
  { harness: 'aider', dir: 'aider/fixtures/damaged' },
  { harness: 'qwen', dir: 'qwen/fixtures/bed' },
  { harness: 'qwen', dir: 'qwen/fixtures/damaged' },
  { harness: 'qwen', dir: 'qwen/fixtures/synthetic' },
  { harness: 'copilot', dir: 'copilot/fixtures/bed' },
  { harness: 'copilot', dir: 'copilot/fixtures/damaged' },
  { harness: 'copilot', dir: 'copilot/fixtures/synthetic' },
  { harness: 'goose', dir: 'goose/fixtures/legacy' },
  { harness: 'goose', dir: 'goose/fixtures/damaged' },
  { harness: 'cline', dir: 'cline/fixtures/synthetic', foldable: false },
  { harness: 'cline', dir: 'cline/fixtures/damaged', foldable: false },
  { harness: 'cline', dir: 'cline/fixtures/cli-3.0.65', foldable: false },
  { harness: 'cline', dir: 'cline/fixtures/bed', foldable: false },
  { harness: 'roo', dir: 'roo/fixtures/synthetic', foldable: false },
];

/** A discovered file that holds a session, as peeked, and the unit a run maps it as. */
export interface PeekedUnit {
  /** As discovered. */
  readonly unit: SourceUnit;
  readonly peek: SessionPeek;
  /** `unit` pointed at the file that holds its parent session, when it reads one (as a run does). */
  readonly linked: SourceUnit;
}

/**
 * Discovers the files of a folder and peeks each; those that hold a session come back in discovery
 * order, each child linked to its parent's file by content (the peeks), never by name.
 */
export async function peekedUnits(importer: HarnessImporter, root: string): Promise<PeekedUnit[]> {
  const units = await importer.discover(root);
  const peeks = new Map<string, SessionPeek>();
  for (const unit of units) {
    const peek = await importer.peek(unit);
    if (peek.kind === 'session') peeks.set(unit.file, peek);
  }
  const fileOf = new Map([...peeks].map(([file, peek]) => [peek.primaryId as string, file]));
  const out: PeekedUnit[] = [];
  for (const unit of units) {
    const peek = peeks.get(unit.file);
    if (peek === undefined) continue;
    const parentFile = peek.readsParent === undefined ? undefined : fileOf.get(peek.readsParent);
    out.push({ unit, peek, linked: parentFile === undefined ? unit : { ...unit, parentFile } });
  }
  return out;
}
