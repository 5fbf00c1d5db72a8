/** A line diff for edit-like tool calls: the old and new text of one edit, line by line. */
export interface DiffLine {
  readonly kind: 'same' | 'add' | 'del';
  readonly text: string;
}

const MAX_CELLS = 4_000_000;

/** Longest-common-subsequence line diff; past a size bound, everything old deleted then new added. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const head: DiffLine[] = a.slice(0, start).map((text) => ({ kind: 'same', text }));
  const tail: DiffLine[] = a.slice(endA).map((text) => ({ kind: 'same', text }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const n = midA.length;
  const m = midB.length;
  if (n * m > MAX_CELLS) {
    return [
      ...head,
      ...midA.map((text): DiffLine => ({ kind: 'del', text })),
      ...midB.map((text): DiffLine => ({ kind: 'add', text })),
      ...tail,
    ];
  }
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i * width + j] =
        midA[i] === midB[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
  const middle: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && midA[i] === midB[j]) {
      middle.push({ kind: 'same', text: midA[i]! });
      i++;
      j++;
    } else if (i < n && (j === m || lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!)) {
      middle.push({ kind: 'del', text: midA[i]! });
      i++;
    } else {
      middle.push({ kind: 'add', text: midB[j]! });
      j++;
    }
  }
  return [...head, ...middle, ...tail];
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
