import pc from 'picocolors';

export type Style = ReturnType<typeof pc.createColors>;

/**
 * Colours for one output stream: only on a terminal that has them. Node's `hasColors()` already
 * honours `NO_COLOR`, `NODE_DISABLE_COLORS`, `FORCE_COLOR` and `TERM=dumb`; a pipe or file
 * (`strand list > rows.txt`, CI) never gets escape codes.
 */
export function styleFor(stream: NodeJS.WriteStream): Style {
  // A strict boolean: `createColors(undefined)` (a pipe's `isTTY`) falls back to picocolors' own
  // guess, which turns colours on whenever `CI` is set — escape codes in a pipe.
  return pc.createColors(stream.isTTY === true && stream.hasColors());
}
