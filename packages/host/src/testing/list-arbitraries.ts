// Test-only: fast-check arbitraries of list rows and filters, shared by the `listPage` property and
// the list index's (index-page.test.ts). Small value ranges, so ties and filter hits are common.
import fc from 'fast-check';
import { listHeader } from '@strand/projection-cache/testing';
import type { ListFilter } from '../list/list-filter.js';
import type { ListableRow } from '../list/list-order.js';

export const IDS = ['a', 'b', 'c', 'ab', 'ba', 'abc', 'bb', 'ca', 'z', 'za'] as const;
export const CWDS = ['/p', '/q', '/w/p/', 'C:\\w\\q', 'p'] as const;
/** Last folder names of `CWDS`, and one none has. */
export const PROJECT_NAMES = ['p', 'q', 'w', 'x'] as const;
export const HARNESSES = ['strand', 'codex', 'claude-code'] as const;
export const TITLES = ['alpha', 'alps', 'beta', null] as const;

export const hintsArb = fc.record(
  {
    title: fc.constantFrom(...TITLES),
    listMetadata: fc.record({
      blank: fc.boolean(),
      lastPromptAt: fc.option(fc.integer({ min: 0, max: 6 })),
    }),
  },
  { requiredKeys: [] },
);

/** One row; times from a small range so equal activity (the id tiebreak) is common. */
export function rowArb(id: string): fc.Arbitrary<ListableRow> {
  return fc
    .record({
      createdAt: fc.integer({ min: 0, max: 6 }),
      cwd: fc.option(fc.constantFrom(...CWDS), { nil: undefined }),
      harness: fc.constantFrom(...HARNESSES),
      parent: fc.option(fc.constantFrom(...IDS), { nil: undefined }),
      subagent: fc.boolean(),
      busy: fc.boolean(),
      hints: fc.option(hintsArb, { nil: undefined }),
    })
    .map((r) => ({
      id,
      busy: r.busy,
      header: listHeader(id, r),
      ...(r.hints === undefined ? {} : { hints: { asOfSeq: 0, values: r.hints } }),
    }));
}

export const rowsArb = fc
  .uniqueArray(fc.constantFrom(...IDS), { maxLength: IDS.length })
  .chain((ids) => fc.tuple(...ids.map(rowArb)));

/** Usually absent: a filter of every field at once would match almost nothing. */
function sometimes<T>(value: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: value, weight: 1 });
}

export const filterArb: fc.Arbitrary<ListFilter> = fc
  .record({
    cwd: sometimes(fc.constantFrom(...CWDS)),
    projectName: sometimes(fc.constantFrom(...PROJECT_NAMES)),
    harness: sometimes(fc.constantFrom(...HARNESSES)),
    parent: sometimes(fc.option(fc.constantFrom(...IDS), { nil: null })),
    busy: sometimes(fc.boolean()),
    titlePrefix: sometimes(fc.constantFrom('al', 'alp', 'b', 'x')),
  })
  .map((filter) => Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined)));
