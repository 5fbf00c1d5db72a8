/**
 * The file formats a session exports to (`session.export`, `strand export --format`, the web's
 * Export menu): the one list. `@strand/export` renders each (its table is keyed by this list, so
 * a format named here without a renderer does not compile).
 */
export const EXPORT_FORMATS = ['markdown', 'html', 'json'] as const;
export type ExportFormatName = (typeof EXPORT_FORMATS)[number];
