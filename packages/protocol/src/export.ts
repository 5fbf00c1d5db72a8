/**
 * The file formats a session exports to (`session.export`, `strand export --format`, the web's
 * Export menu): the one list. `@strand/export` renders each (its table is keyed by this list, so
 * a format named here without a renderer does not compile).
 */
export const EXPORT_FORMATS = ['markdown', 'html', 'json'] as const;
export type ExportFormatName = (typeof EXPORT_FORMATS)[number];

/**
 * The harnesses a session continues in, written as their own transcript (`session.exportTo`,
 * `strand export --to`, the web's "Continue in…"): the one list.
 */
export const EXPORT_HARNESSES = ['claude-code', 'codex', 'gemini'] as const;
export type ExportHarnessName = (typeof EXPORT_HARNESSES)[number];
