import type { SessionListRow } from '@strand/protocol';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { describeRow, inProject, isFolderPath, matches, sourceOf, trimFolder } from './session-facts.js';
import { SessionId } from '@strand/session';

const row = (
  id: string,
  extra: Partial<SessionListRow['header']> = {},
  title?: string | null,
): SessionListRow => ({
  id,
  header: { version: 1, id: SessionId(id), createdAt: Date.UTC(2026, 0, 2, 3, 4), isSeeded: false, ...extra },
  live: false,
  busy: false,
  ...(title === undefined ? {} : { hints: { asOfSeq: 3, values: { title } } }),
});

describe('session facts', () => {
  it('reads the source harness from the ids strand import gives', () => {
    expect(sourceOf('claude-5b1c-agent-a1')).toBe('claude-code');
    expect(sourceOf('codex-01a0')).toBe('codex');
    expect(sourceOf('gemini-abc')).toBe('gemini');
    expect(sourceOf('demo-1')).toBe('strand');
    expect(sourceOf('3f1e2d9a-uuid')).toBe('strand');
  });

  it('matches a project by its path or its last folder name, not by a part of a name', () => {
    expect(inProject('/home/dev/app', '/home/dev/app')).toBe(true);
    expect(inProject('/home/dev/app/', 'app')).toBe(true);
    expect(inProject('C:\\work\\app', 'app')).toBe(true);
    expect(inProject('/home/dev/app', 'ap')).toBe(false);
    expect(inProject('/home/dev/app', 'dev')).toBe(false);
    expect(inProject(undefined, 'app')).toBe(false);
  });

  it('a project given as a path matches exactly the folders equal to it, so the host may narrow by it', () => {
    const segment = fc.constantFrom('a', 'app', 'svc', 'dev', 'x y');
    const folder = fc
      .tuple(
        fc.constantFrom('/', 'C:\\', ''),
        fc.array(segment, { maxLength: 4 }),
        fc.constantFrom('', '/', '//'),
      )
      .map(([root, parts, tail]) => root + parts.join(root === 'C:\\' ? '\\' : '/') + tail);
    fc.assert(
      fc.property(folder, folder, (cwd, project) => {
        if (!isFolderPath(project)) return;
        expect(inProject(cwd, project)).toBe(trimFolder(cwd) === trimFolder(project));
      }),
    );
    expect(isFolderPath('svc')).toBe(false);
    expect(isFolderPath('svc/')).toBe(false);
    expect(isFolderPath('/srv/svc/')).toBe(true);
  });

  it('combines filters', () => {
    const r = row('codex-1', { cwd: '/srv/svc' });
    expect(matches(r, {})).toBe(true);
    expect(matches(r, { source: 'codex', project: 'svc' })).toBe(true);
    expect(matches(r, { source: 'strand' })).toBe(false);
    expect(matches(r, { project: 'app' })).toBe(false);
  });

  it('describes a row on one line, quoting titles and paths', () => {
    expect(describeRow(row('demo-1', { cwd: '/h/s' }, 'Say "hi"\nnow'))).toBe(
      'demo-1  2026-01-02 03:04  "Say \\"hi\\"\\nnow"  project="/h/s"  from=strand',
    );
    expect(describeRow(row('c', { origin: 'subagent', parentSession: SessionId('p') }, null))).toBe(
      'c  2026-01-02 03:04  (untitled)  project=?  from=strand (subagent of p)',
    );
    expect(describeRow({ ...row('f', { forkedFrom: SessionId('p') }), busy: true })).toBe(
      'f  2026-01-02 03:04  (title unknown)  project=?  from=strand (fork of p)  running',
    );
  });
});
