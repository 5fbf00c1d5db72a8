import stringWidth from 'string-width';

export interface Column {
  /** Cells wider than this are cut, ending in `…`; the last column's bound is the line's room. */
  readonly max?: number;
  /** At least this many cells, so rows rendered apart (follow's batches) still line up. */
  readonly min?: number;
  readonly align?: 'left' | 'right';
}

/**
 * Rows as aligned text columns two spaces apart, measured in terminal cells (string-width: wide
 * CJK characters count two, colour codes none), so one long id or title cannot shift the rest.
 * `width` (a terminal's columns) bounds the last column; without it (a pipe) the last column is
 * printed whole.
 */
export function renderTable(
  rows: readonly (readonly string[])[],
  columns: readonly Column[],
  width?: number,
): string[] {
  const widths = columns.map((column, i) =>
    Math.min(
      column.max ?? Infinity,
      Math.max(column.min ?? 0, ...rows.map((row) => stringWidth(row[i] ?? ''))),
    ),
  );
  const last = columns.length - 1;
  const lead = widths.slice(0, last).reduce((sum, w) => sum + w + 2, 0);
  const room = width === undefined ? Infinity : Math.max(10, width - lead);
  return rows.map((row) =>
    columns
      .map((column, i) => {
        const cell = truncate(row[i] ?? '', i === last ? Math.min(room, widths[i]!) : widths[i]!);
        return i === last && column.align !== 'right' ? cell : pad(cell, widths[i]!, column.align);
      })
      .join('  ')
      .trimEnd(),
  );
}

/** `text` cut to `max` cells, ending in `…` when cut. */
export function truncate(text: string, max: number): string {
  if (stringWidth(text) <= max) return text;
  let out = '';
  for (const char of text) {
    if (stringWidth(out + char) > max - 1) break;
    out += char;
  }
  return `${out}…`;
}

function pad(text: string, width: number, align: Column['align']): string {
  const fill = ' '.repeat(Math.max(0, width - stringWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}
