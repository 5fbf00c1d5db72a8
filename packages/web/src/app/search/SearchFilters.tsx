import { Group, NativeSelect } from '@mantine/core';
import type { SessionListRow } from '@strand/protocol';
import { HARNESSES, harnessChoices } from '../shared/harness-labels.js';

/** What search narrows to: a project folder (exact header `cwd`) and the harness a session came from. */
export interface SearchNarrowing {
  readonly cwd?: string;
  readonly harness?: string;
}

/** The project folders of the listed sessions, sorted: what the project control offers. */
export function projectFolders(rows: readonly SessionListRow[]): string[] {
  const folders = new Set<string>();
  for (const row of rows)
    if (row.header.cwd !== undefined && row.header.cwd !== '') folders.add(row.header.cwd);
  return [...folders].sort();
}

/** The two narrowing controls beside the search box; an empty choice means "any". */
export function SearchFilters({
  rows,
  value,
  onChange,
}: {
  rows: readonly SessionListRow[];
  value: SearchNarrowing;
  onChange: (next: SearchNarrowing) => void;
}): React.JSX.Element {
  const folders = projectFolders(rows);
  // A chosen folder stays offered even when the list no longer holds a session of it.
  if (value.cwd !== undefined && !folders.includes(value.cwd)) folders.push(value.cwd);
  const set = (key: keyof SearchNarrowing, raw: string): void => {
    const next: { cwd?: string; harness?: string } = { ...value };
    if (raw === '') delete next[key];
    else if (key === 'cwd') next.cwd = raw;
    else next.harness = raw;
    onChange(next);
  };
  return (
    <Group gap={6} grow wrap="nowrap" data-testid="search-filters">
      <NativeSelect
        size="xs"
        aria-label="Project"
        data-testid="search-project"
        value={value.cwd ?? ''}
        onChange={(event) => set('cwd', event.currentTarget.value)}
        data={[
          { value: '', label: 'All projects' },
          ...folders.map((folder) => ({ value: folder, label: folder })),
        ]}
      />
      <NativeSelect
        size="xs"
        aria-label="Harness"
        data-testid="search-harness"
        value={value.harness ?? ''}
        onChange={(event) => set('harness', event.currentTarget.value)}
        data={[{ value: '', label: 'All harnesses' }, ...harnessChoices(HARNESSES)]}
      />
    </Group>
  );
}
