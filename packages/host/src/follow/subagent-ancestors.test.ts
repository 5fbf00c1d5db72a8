import { describe, expect, it } from 'vitest';
import { SessionId, newSessionHeader, type SessionHeader } from '@strand/session';
import { subagentAncestors } from './subagent-ancestors.js';

const root = newSessionHeader({ id: SessionId('root') });
const childOf = (id: string, parent: string): SessionHeader =>
  newSessionHeader({ id: SessionId(id), parentSession: SessionId(parent), origin: 'subagent' });
const lookup =
  (...headers: SessionHeader[]) =>
  (id: SessionId): SessionHeader | undefined =>
    headers.find((header) => header.id === id);

describe('subagentAncestors', () => {
  it('walks up a chain of live subagent children to the first ordinary session, nearest first', () => {
    const a = childOf('a', 'root');
    const b = childOf('b', 'a');
    const c = childOf('c', 'b');
    expect(subagentAncestors(c, lookup(root, a, b))).toEqual(['b', 'a', 'root']);
  });

  it('stops above a cold ancestor (its header is not at hand)', () => {
    const b = childOf('b', 'a');
    const c = childOf('c', 'b');
    expect(subagentAncestors(c, lookup(b))).toEqual(['b', 'a']);
  });

  it('an ordinary session, or a fork that is no subagent, tells nobody', () => {
    expect(subagentAncestors(root, lookup(root))).toEqual([]);
    const fork = newSessionHeader({ id: SessionId('fork'), parentSession: SessionId('root') });
    expect(subagentAncestors(fork, lookup(root))).toEqual([]);
  });

  it('a cycle of headers ends the walk, each ancestor once', () => {
    const a = childOf('a', 'b');
    const b = childOf('b', 'a');
    expect(subagentAncestors(a, lookup(a, b))).toEqual(['b']);
    const self = childOf('self', 'self');
    expect(subagentAncestors(self, lookup(self))).toEqual([]);
  });
});
