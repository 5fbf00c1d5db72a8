import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { agentTable } from './session-text.js';

const plain = pc.createColors(false);

describe('agentTable', () => {
  it('indents descendants by depth, keeps the columns aligned and explains a diagnostic row', () => {
    const lines = agentTable(
      [
        {
          kind: 'child',
          id: 'a',
          activity: 'running',
          hasChildren: true,
          mode: 'continuable',
          label: 'lead',
          depth: 1,
        },
        { kind: 'child', id: 'a-b', activity: 'inactive', hasChildren: false, mode: 'one-shot', depth: 2 },
        { kind: 'diagnostic', id: 'broken', reason: 'corrupt', depth: 1 },
      ],
      plain,
    );
    expect(lines).toEqual([
      'ID      MODE         LABEL  STATUS',
      'a       continuable  lead   running, has children',
      '  a-b   one-shot            inactive',
      'broken  —                   corrupt: its subagent descriptor is missing or unreadable',
    ]);
  });
});
