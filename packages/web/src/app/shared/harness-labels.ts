/*
 * The harnesses the list's and usage page's menus offer, with the names people know them by: the
 * session package's one label map. A harness missing there (a newer importer's) still filters and
 * shows, under its own name; an address may name any harness.
 */
export { HARNESS_LABELS, KNOWN_HARNESSES as HARNESSES, harnessLabel, isHarnessName } from '@strand/session';
