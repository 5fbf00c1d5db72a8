/**
 * The shapes of a harness's transcript records, to see what a newer version writes that the
 * pinned one did not: a record kind never seen, or a field a kind did not have. A kind is the
 * record's `type` refined by the discriminator the harnesses nest (`payload.type` in Codex
 * rollouts, `attachment.type` and `subtype` in Claude Code); a Gemini row without a `type`
 * is named by its keys (`$set`, `$rewindTo`, the metadata line).
 */

export type Shapes = Map<string, Set<string>>;

/** How deep field paths go: deeper structure is tool input and content, not format. */
const DEPTH = 3;

export function kindOf(record: Record<string, unknown>): string {
  const sub = (value: unknown, key: string): string | undefined => {
    if (typeof value !== 'object' || value === null) return undefined;
    const found = (value as Record<string, unknown>)[key];
    return typeof found === 'string' ? found : undefined;
  };
  if (typeof record.type === 'string') {
    const refined = sub(record.payload, 'type') ?? sub(record.attachment, 'type') ?? sub(record, 'subtype');
    return refined === undefined ? record.type : `${record.type}:${refined}`;
  }
  return `{${Object.keys(record).sort().join(',')}}`;
}

function fieldsOf(value: unknown, prefix: string, depth: number, out: Set<string>): void {
  if (depth === 0 || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) fieldsOf(item, `${prefix}[]`, depth, out);
    return;
  }
  for (const [key, child] of Object.entries(value)) {
    const field = prefix === '' ? key : `${prefix}.${key}`;
    out.add(field);
    fieldsOf(child, field, depth - 1, out);
  }
}

/** Adds the records of a JSONL or whole-JSON transcript to `shapes`. */
export function addShapes(text: string, shapes: Shapes): void {
  const records: unknown[] = [];
  const trimmed = text.trim();
  if (trimmed.startsWith('{') && !trimmed.includes('\n')) records.push(parse(trimmed));
  else for (const line of text.split('\n')) if (line.trim().length > 0) records.push(parse(line));
  for (const record of records) {
    if (typeof record !== 'object' || record === null || Array.isArray(record)) continue;
    const kind = kindOf(record as Record<string, unknown>);
    const fields = shapes.get(kind) ?? new Set<string>();
    fieldsOf(record, '', DEPTH, fields);
    shapes.set(kind, fields);
  }
}

function parse(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

/** What `newer` has that `known` lacks: kinds never seen, then new fields of known kinds. */
export function drift(known: Shapes, newer: Shapes): string[] {
  const out: string[] = [];
  for (const [kind, fields] of [...newer].sort(([a], [b]) => a.localeCompare(b))) {
    const before = known.get(kind);
    if (before === undefined) {
      out.push(`new record kind ${kind}`);
      continue;
    }
    for (const field of [...fields].sort()) if (!before.has(field)) out.push(`${kind}: new field ${field}`);
  }
  return out;
}
