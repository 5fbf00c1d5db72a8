/*
 * The harnesses the list's, search's and usage page's menus offer, with the names people know them by: the
 * session package's one label map. A harness missing there (a newer importer's) still filters and
 * shows, under its own name; an address may name any harness.
 */
import { harnessLabel } from '@strand/session';

export { HARNESS_LABELS, KNOWN_HARNESSES as HARNESSES, harnessLabel, isHarnessName } from '@strand/session';

/** A harness menu's choices, each under the name people know it by (`harnessLabel`). */
export function harnessChoices(harnesses: readonly string[]): { value: string; label: string }[] {
  return harnesses.map((value) => ({ value, label: harnessLabel(value) }));
}
