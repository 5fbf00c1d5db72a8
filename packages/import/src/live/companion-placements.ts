import path from 'node:path';
import type { HarnessImporter, SessionPeek } from '../run/harness-importer.js';

/**
 * Live ingest of a harness whose files are placed by their companions' content
 * (`placedByCompanions`: a Gemini nested chat is a child once the person's chat records the call
 * that ran it, which gemini-cli does when the call completes, after the nested chat's last write).
 * It remembers where each file's last peek placed it, and when a file changes, peeks again the
 * files it is a companion of; those placed elsewhere now are to be read whole again (compared with
 * what is stored: replaced, or a new session).
 *
 * Looking again lists the folder and peeks every related file, each of which reads its
 * companions: so it is done only when what the changed file tells its companions' placement
 * (`placementKey`) changed since it was last looked at — not on every streamed write of a chat.
 */
export class CompanionPlacements {
  /** File → where its last peek placed it. */
  readonly #placements = new Map<string, string>();
  /** File → its `placementKey` when its companions were last placed. */
  readonly #keys = new Map<string, string>();

  /** Remembers where `peek` placed `file`. */
  placed(file: string, peek: SessionPeek): void {
    this.#placements.set(file, placementOf(peek));
  }

  /** The files `file` is a companion of whose placement changed since they were read. */
  async moved(file: string, importer: HarnessImporter): Promise<string[]> {
    if (!(await this.#keyChanged(file, importer))) return [];
    const moved: string[] = [];
    for (const unit of await importer.discover(path.dirname(file)).catch(() => [])) {
      const before = this.#placements.get(unit.file);
      if (before === undefined || !unit.companions.includes(file)) continue;
      const peek = await importer.peek(unit);
      if (peek.kind !== 'session' || placementOf(peek) === before) continue;
      moved.push(unit.file);
    }
    return moved;
  }

  /** Whether `file` may place its companions otherwise than when they were last placed. */
  async #keyChanged(file: string, importer: HarnessImporter): Promise<boolean> {
    if (importer.placementKey === undefined) return true;
    const key = await importer.placementKey(file).catch(() => undefined);
    // Unreadable (gone, cut mid-write): its companions are looked at, and again on its next change.
    if (key === undefined) {
      this.#keys.delete(file);
      return true;
    }
    if (this.#keys.get(file) === key) return false;
    this.#keys.set(file, key);
    return true;
  }
}

/**
 * What a peek says of where a file's session goes: its id, its depth (a child or not) and the
 * facts the mapping takes from the peek (a child's label).
 */
function placementOf(peek: SessionPeek): string {
  return JSON.stringify([peek.primaryId, peek.depth, peek.facts ?? null]);
}
