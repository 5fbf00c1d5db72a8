import { Group } from '@mantine/core';
import type { SessionListRow } from '@strand/protocol';
import { HARNESSES } from '../shared/harness-labels.js';
import { ProjectHarnessSelect, type ProjectHarness } from '../shared/ProjectHarnessSelect.js';

/** What search narrows to: a project folder (exact header `cwd`) and the harness a session came from. */
export type SearchNarrowing = ProjectHarness;

export const NO_NARROWING: SearchNarrowing = { cwd: null, harness: null };

/** The project folders of the listed sessions, sorted: what the project control offers. */
export function projectFolders(rows: readonly SessionListRow[]): string[] {
  const folders = new Set<string>();
  for (const row of rows)
    if (row.header.cwd !== undefined && row.header.cwd !== '') folders.add(row.header.cwd);
  return [...folders].sort();
}

/** The two narrowing controls beside the search box (the list's own pair); "All …" means any. */
export function SearchFilters({
  rows,
  value,
  onChange,
}: {
  rows: readonly SessionListRow[];
  value: SearchNarrowing;
  onChange: (next: SearchNarrowing) => void;
}): React.JSX.Element {
  return (
    <Group gap={6} grow wrap="nowrap" data-testid="search-filters">
      <ProjectHarnessSelect
        projects={projectFolders(rows)}
        harnesses={HARNESSES}
        value={value}
        onChange={onChange}
        names={{ project: 'Project', harness: 'Harness' }}
        testIdPrefix="search"
      />
    </Group>
  );
}
