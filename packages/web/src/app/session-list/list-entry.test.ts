import { describe, expect, it } from 'vitest';
import type { SessionListRow } from '@strand/protocol';
import { listEntry } from './list-entry.js';
import { SessionId } from '@strand/session';

const row = (header: Partial<SessionListRow['header']>): SessionListRow => ({
  id: 'kid',
  header: { version: 1, id: SessionId('kid'), createdAt: 7, isSeeded: false, ...header },
  live: false,
  busy: false,
});
const known = (value: unknown) => ({ known: true, value, seq: 3 }) as const;

describe('listEntry', () => {
  it('nests only a subagent child under its parentSession', () => {
    expect(
      listEntry(row({ origin: 'subagent', parentSession: SessionId('p') }), { known: false }).parentId,
    ).toBe('p');
    // A fork names its parent too, but is not a subagent: it stays at the top level.
    expect(listEntry(row({ parentSession: SessionId('p') }), { known: false }).parentId).toBeNull();
  });
  it('keeps an unknown hint unknown, apart from "no prompt yet"', () => {
    expect(listEntry(row({}), { known: false }).lastPromptAt).toBeUndefined();
    expect(listEntry(row({}), known(null)).lastPromptAt).toBeUndefined();
    expect(listEntry(row({}), known({ blank: true, lastPromptAt: null })).lastPromptAt).toBeNull();
    expect(listEntry(row({}), known({ blank: false, lastPromptAt: 42 })).lastPromptAt).toBe(42);
  });
  it('reads the project and the harness from the header, Strand’s own having none', () => {
    const imported = row({ cwd: '/p', source: { harness: 'codex', sourceId: 'x' } });
    expect(listEntry(imported, { known: false })).toMatchObject({
      cwd: '/p',
      harness: 'codex',
      createdAt: 7,
    });
    expect(listEntry(row({}), { known: false })).toMatchObject({ cwd: null, harness: null });
  });
});
