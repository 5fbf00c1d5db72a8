import { SessionId } from '@strand/session';
import { describe, expect, it } from 'vitest';
import type { SubagentDescendantEntry, SubagentListEntry } from '../listing/types.js';
import { renderAgentList } from './render-agent-list.js';

const id = SessionId;
const rows: SubagentListEntry[] = [
  {
    kind: 'child',
    id: id('c-1'),
    activity: 'running',
    hasChildren: true,
    mode: 'continuable',
    label: 'reviewer',
  },
  { kind: 'child', id: id('c-2'), activity: 'inactive', hasChildren: false, mode: 'one-shot' },
  {
    kind: 'child',
    id: id('c-3'),
    activity: 'inactive',
    hasChildren: false,
    mode: 'one-shot',
    label: 'line\nbreak "quoted"',
  },
  { kind: 'diagnostic', id: id('c-4'), reason: 'corrupt' },
  { kind: 'diagnostic', id: id('c-5'), reason: 'unavailable' },
  { kind: 'diagnostic', id: id('c-6'), reason: 'unsupported' },
];

describe('list_agents rendering (stable text)', () => {
  it('renders the empty list', () => {
    expect(renderAgentList([], 'children')).toBe('No child agents.');
    expect(renderAgentList([], 'descendants')).toBe('No descendant agents.');
  });

  it('renders child rows (id, mode, label, status, hasChildren) and diagnostic rows (id, reason)', () => {
    expect(renderAgentList(rows, 'children')).toBe(
      [
        '6 child agents:',
        '- id="c-1" mode=continuable label="reviewer" status=running hasChildren=true',
        '- id="c-2" mode=one-shot status=inactive hasChildren=false',
        '- id="c-3" mode=one-shot label="line\\nbreak \\"quoted\\"" status=inactive hasChildren=false',
        '- id="c-4" diagnostic=corrupt (its subagent descriptor is missing or unreadable; it cannot be continued)',
        '- id="c-5" diagnostic=unavailable (its log could not be read just now; list again to retry)',
        '- id="c-6" diagnostic=unsupported (it was written by a newer version and cannot be read here)',
      ].join('\n'),
    );
  });

  it('uses the singular for one row', () => {
    expect(renderAgentList([rows[1]!], 'children')).toBe(
      '1 child agent:\n- id="c-2" mode=one-shot status=inactive hasChildren=false',
    );
  });

  it('renders descendant rows indented by depth, naming their parent', () => {
    const tree: SubagentDescendantEntry[] = [
      { ...rows[0]!, parentId: id('root'), depth: 1 },
      { ...rows[3]!, parentId: id('c-1'), depth: 2 },
      { ...rows[1]!, parentId: id('c-4'), depth: 3 },
      { ...rows[4]!, parentId: id('root'), depth: 1 },
    ];
    expect(renderAgentList(tree, 'descendants')).toBe(
      [
        '4 descendant agents:',
        '- depth=1 parent="root" id="c-1" mode=continuable label="reviewer" status=running hasChildren=true',
        '  - depth=2 parent="c-1" id="c-4" diagnostic=corrupt (its subagent descriptor is missing or unreadable; it cannot be continued)',
        '    - depth=3 parent="c-4" id="c-2" mode=one-shot status=inactive hasChildren=false',
        '- depth=1 parent="root" id="c-5" diagnostic=unavailable (its log could not be read just now; list again to retry)',
      ].join('\n'),
    );
  });
});
