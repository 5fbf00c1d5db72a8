import { diffArrays } from 'diff';

/** A line diff for edit-like tool calls: the old and new text of one edit, line by line. */
export interface DiffLine {
  readonly kind: 'same' | 'add' | 'del';
  readonly text: string;
}

/**
 * How many lines may differ before the diff gives up (Myers' algorithm costs about the text's
 * length times this): past it, everything old is deleted, then everything new added.
 */
const MAX_EDIT_LINES = 2_000;

/** A line diff (jsdiff's Myers diff); past a size bound, everything old deleted then new added. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  const changes = diffArrays(a, b, { maxEditLength: MAX_EDIT_LINES });
  if (changes === undefined)
    return [
      ...a.map((text): DiffLine => ({ kind: 'del', text })),
      ...b.map((text): DiffLine => ({ kind: 'add', text })),
    ];
  return changes.flatMap((change) => {
    const kind = change.added ? 'add' : change.removed ? 'del' : 'same';
    return change.value.map((text): DiffLine => ({ kind, text }));
  });
}

/** The lines of a unified diff (`apply_patch`-style input), classified by their first character. */
export function patchLines(patch: string): DiffLine[] {
  return patch.split('\n').map((text) => {
    if (text.startsWith('+') && !text.startsWith('+++')) return { kind: 'add', text: text.slice(1) };
    if (text.startsWith('-') && !text.startsWith('---')) return { kind: 'del', text: text.slice(1) };
    return { kind: 'same', text: text.startsWith(' ') ? text.slice(1) : text };
  });
}

export interface EditView {
  readonly path: string | undefined;
  readonly lines: readonly DiffLine[];
}

const pick = (args: Readonly<Record<string, unknown>>, names: readonly string[]): string | undefined => {
  for (const name of names) if (typeof args[name] === 'string') return args[name];
  return undefined;
};

/**
 * The diff an edit-like tool call shows, from its parsed arguments: an old/new pair
 * (`old_string`/`new_string`, `old_str`/`new_str`, `oldText`/`newText`, `search`/`replace`), a
 * patch (`patch`, `diff`, `input` of an apply-patch tool), or a whole file written (`content` of a
 * write tool: every line added). Undefined when the call is not edit-like.
 */
export function editView(name: string, args: unknown): EditView | undefined {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  const record = args as Readonly<Record<string, unknown>>;
  const path = pick(record, ['path', 'file_path', 'filePath', 'file']);
  const before = pick(record, ['old_string', 'old_str', 'oldText', 'old_text', 'search']);
  const after = pick(record, ['new_string', 'new_str', 'newText', 'new_text', 'replace']);
  if (before !== undefined && after !== undefined) return { path, lines: lineDiff(before, after) };
  if (Array.isArray(record.edits)) {
    const lines: DiffLine[] = [];
    for (const edit of record.edits) {
      const view = editView(name, edit);
      if (view !== undefined) lines.push(...view.lines, { kind: 'same', text: '⋯' });
    }
    if (lines.length > 0) return { path, lines: lines.slice(0, -1) };
  }
  const patch =
    pick(record, ['patch', 'diff']) ?? (/patch/i.test(name) ? pick(record, ['input']) : undefined);
  if (patch !== undefined) return { path, lines: patchLines(patch) };
  const content = pick(record, ['content', 'contents', 'text']);
  if (/write|create/i.test(name) && content !== undefined) return { path, lines: lineDiff('', content) };
  return undefined;
}
