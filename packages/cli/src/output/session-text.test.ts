import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import type { SessionListRow } from '@strand/protocol';
import { newSessionHeader, SessionId } from '@strand/session';
import { agentTable, sessionTable } from './session-text.js';

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

describe('sessionTable', () => {
  const child = (parentSession?: string): SessionListRow => ({
    id: 'kid',
    header: newSessionHeader({
      id: SessionId('kid'),
      origin: 'subagent',
      ...(parentSession === undefined ? {} : { parentSession: SessionId(parentSession) }),
      createdAt: Date.UTC(2026, 0, 1),
    }),
    live: false,
    busy: false,
  });

  it('names a child by its parent id', () => {
    expect(sessionTable([child('mum')], plain)[1]).toContain('(child of mum)');
  });

  it('says the parent is not in the corpus when a child header names none, never undefined', () => {
    const line = sessionTable([child()], plain)[1] ?? '';
    expect(line).toContain('(child of a session not in this corpus)');
    expect(line).not.toContain('undefined');
  });
});
