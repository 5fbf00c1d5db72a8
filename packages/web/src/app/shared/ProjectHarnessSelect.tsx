import { Select } from '@mantine/core';
import { harnessChoices } from './harness-labels.js';

/** A project folder (a header's exact `cwd`) and a harness; `null` is "all". */
export interface ProjectHarness {
  readonly cwd: string | null;
  readonly harness: string | null;
}

/** The choice that means "all": first in each menu, so it is picked like any other (keyboard too). */
const ALL = '';

/**
 * The project and harness controls, one pair wherever sessions are narrowed — the session list's
 * filters, the search's and the usage page's — so the three look, read and behave alike: the
 * project searchable (a corpus may hold hundreds of folders), the harness under the name people
 * know it by (`harnessChoices`, the one label map), each led by "All projects" / "All harnesses".
 * A chosen value stays offered when no listed session has it (an address may name any).
 *
 * `names` are the accessible names; `labelled` shows them as labels above (the usage page's
 * form) instead of leaving them to `aria-label` (the narrow sidebar's row). Test ids are
 * `<testIdPrefix>-project` and `<testIdPrefix>-harness`. A fragment: the caller lays the pair out.
 */
export function ProjectHarnessSelect({
  projects,
  harnesses,
  value,
  onChange,
  names,
  testIdPrefix,
  labelled = false,
}: {
  /** The folders offered, in the order given. */
  projects: readonly string[];
  /** The harness names offered (`strand` for Strand's own), in the order given. */
  harnesses: readonly string[];
  value: ProjectHarness;
  onChange: (next: ProjectHarness) => void;
  names: { readonly project: string; readonly harness: string };
  testIdPrefix: string;
  labelled?: boolean;
}): React.JSX.Element {
  const folders = withChosen(projects, value.cwd);
  const kinds = withChosen(harnesses, value.harness);
  const chosen = (raw: string | null): string | null => (raw === null || raw === ALL ? null : raw);
  const common = labelled
    ? ({ size: 'sm' } as const)
    : ({ size: 'xs', style: { flex: 1, minWidth: 0 } } as const);
  return (
    <>
      <Select
        {...common}
        {...(labelled ? { label: names.project, w: 280 } : { 'aria-label': names.project })}
        data-testid={`${testIdPrefix}-project`}
        data={[
          { value: ALL, label: 'All projects' },
          ...folders.map((folder) => ({ value: folder, label: folder })),
        ]}
        value={value.cwd ?? ALL}
        onChange={(raw) => onChange({ cwd: chosen(raw), harness: value.harness })}
        clearable
        searchable
      />
      <Select
        {...common}
        {...(labelled ? { label: names.harness, w: 170 } : { 'aria-label': names.harness })}
        data-testid={`${testIdPrefix}-harness`}
        data={[{ value: ALL, label: 'All harnesses' }, ...harnessChoices(kinds)]}
        value={value.harness ?? ALL}
        onChange={(raw) => onChange({ cwd: value.cwd, harness: chosen(raw) })}
        clearable
      />
    </>
  );
}

/** `offered`, plus `value` at the end when it is chosen but not among them. */
function withChosen(offered: readonly string[], value: string | null): readonly string[] {
  return value === null || value === ALL || offered.includes(value) ? offered : [...offered, value];
}
