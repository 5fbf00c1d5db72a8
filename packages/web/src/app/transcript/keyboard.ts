/**
 * What a key pressed in the transcript means (web/README "Keyboard"): j/k and the arrows move
 * between events, Home/End go to the first/last loaded one, Enter opens the focused event's
 * first control (a tool card, "Show more"), Escape goes from a control back to its event. A key
 * with Ctrl, Alt or Meta, or typed into a field, is not ours.
 */
export type TranscriptKey = 'next' | 'previous' | 'first' | 'last' | 'activate' | 'to-row';

export interface KeyPress {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly altKey: boolean;
  readonly metaKey: boolean;
  /** The focus is in a text field (typing a `j` must type it). */
  readonly inField: boolean;
  /** The focus is on an event row itself, not on a control inside it. */
  readonly onRow: boolean;
}

export function transcriptKey(press: KeyPress): TranscriptKey | undefined {
  if (press.ctrlKey || press.altKey || press.metaKey || press.inField) return undefined;
  switch (press.key) {
    case 'j':
    case 'ArrowDown':
      return 'next';
    case 'k':
    case 'ArrowUp':
      return 'previous';
    case 'Home':
      return 'first';
    case 'End':
      return 'last';
    case 'Enter':
      // On a control, Enter is the control's own (open the card, follow the link).
      return press.onRow ? 'activate' : undefined;
    case 'Escape':
      return press.onRow ? undefined : 'to-row';
    default:
      return undefined;
  }
}

/**
 * The index of the row to focus after `action`, over `count` rows, from `current` (the focused
 * row's index, or `undefined` when the transcript itself has the focus: then `next` starts at the
 * first row in view and `previous` at the last, `firstInView`/`lastInView`). `undefined`: stay.
 */
export function nextRow(
  action: 'next' | 'previous' | 'first' | 'last',
  count: number,
  current: number | undefined,
  inView: { readonly first: number; readonly last: number },
): number | undefined {
  if (count === 0) return undefined;
  switch (action) {
    case 'first':
      return 0;
    case 'last':
      return count - 1;
    case 'next':
      if (current === undefined) return Math.min(Math.max(inView.first, 0), count - 1);
      return current + 1 < count ? current + 1 : undefined;
    case 'previous':
      if (current === undefined) return Math.min(Math.max(inView.last, 0), count - 1);
      return current > 0 ? current - 1 : undefined;
    default: {
      const exhaustive: never = action;
      throw new Error(`unhandled move ${String(exhaustive)}`);
    }
  }
}
