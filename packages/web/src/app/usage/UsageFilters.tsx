import { Button, Group, TextInput } from '@mantine/core';
import type { UsageRow } from '@strand/protocol';
import { HARNESSES, isHarnessName } from '../shared/harness-labels.js';
import { ProjectHarnessSelect } from '../shared/ProjectHarnessSelect.js';
import { isDay, NO_USAGE_FILTER, type UsageFilter } from '../shared/routing/usage-filter-params.js';

/**
 * The page's filters, as the session list has them (project, harness) plus a day range. Every
 * change goes to the address (the caller navigates), which is the page's one store of them.
 */
export function UsageFilters({
  value,
  projects,
  onChange,
}: {
  value: UsageFilter;
  /** The by-project rows (without the project filter): the folders that have usage. */
  projects: readonly UsageRow[];
  onChange: (next: UsageFilter) => void;
}): React.JSX.Element {
  // "(no project)" is no folder the wire can filter on.
  const folders = projects.map((row) => row.key).filter((key) => key !== '');
  const day = (raw: string): string | null => (isDay(raw) ? raw : null);
  const filtered = Object.values(value).some((v) => v !== null);
  return (
    <Group gap="xs" align="flex-end" data-testid="usage-filters">
      <ProjectHarnessSelect
        projects={folders}
        harnesses={HARNESSES}
        value={value}
        onChange={({ cwd, harness }) =>
          onChange({ ...value, cwd, harness: harness !== null && isHarnessName(harness) ? harness : null })
        }
        names={{ project: 'Project', harness: 'Harness' }}
        testIdPrefix="usage-filter"
        labelled
      />
      <TextInput
        type="date"
        label="From"
        data-testid="usage-filter-since"
        value={value.since ?? ''}
        max={value.until ?? undefined}
        onChange={(event) => onChange({ ...value, since: day(event.currentTarget.value) })}
        w={160}
      />
      <TextInput
        type="date"
        label="Through"
        data-testid="usage-filter-until"
        value={value.until ?? ''}
        min={value.since ?? undefined}
        onChange={(event) => onChange({ ...value, until: day(event.currentTarget.value) })}
        w={160}
      />
      {filtered && (
        <Button variant="subtle" onClick={() => onChange(NO_USAGE_FILTER)} data-testid="usage-filter-clear">
          Clear filters
        </Button>
      )}
    </Group>
  );
}
