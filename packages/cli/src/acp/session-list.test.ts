import type { SessionListRow } from '@strand/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acpSessionPage, ACP_LIST_PAGE, hostListParams } from './session-list.js';

function row(
  id: string,
  fields: { cwd?: string; title?: string | null; lastPromptAt?: number } = {},
): SessionListRow {
  const values: Record<string, unknown> = {};
  if (fields.title !== undefined) values.title = fields.title;
  if (fields.lastPromptAt !== undefined) values.listMetadata = { lastPromptAt: fields.lastPromptAt };
  return {
    id,
    header: { id, createdAt: 1_000, ...(fields.cwd === undefined ? {} : { cwd: fields.cwd }) },
    live: false,
    busy: false,
    hints: { asOfSeq: 3, values },
  } as unknown as SessionListRow;
}

describe('ACP session/list over the host pages', () => {
  it('asks the host for one page with the editor cursor and folder, nothing else', () => {
    expect(hostListParams({})).toEqual({ limit: ACP_LIST_PAGE });
    expect(hostListParams({ cwd: '/w', cursor: 'c1', _meta: { x: 1 } })).toEqual({
      limit: ACP_LIST_PAGE,
      cwd: '/w',
      cursor: 'c1',
    });
    expect(hostListParams({ cwd: null, cursor: null })).toEqual({ limit: ACP_LIST_PAGE });
  });

  it('maps rows in the host order: title, folder, last activity; the host cursor passes through', () => {
    const page = acpSessionPage(
      {
        sessions: [
          row('a', { cwd: '/work/a', title: 'Fix the bug', lastPromptAt: Date.UTC(2026, 0, 2) }),
          row('b', { cwd: '/work/b', title: null }),
        ],
        nextCursor: 'next-page',
      },
      '/here',
    );
    expect(page).toEqual({
      sessions: [
        { sessionId: 'a', cwd: '/work/a', title: 'Fix the bug', updatedAt: '2026-01-02T00:00:00.000Z' },
        { sessionId: 'b', cwd: '/work/b', title: 'Session b', updatedAt: '1970-01-01T00:00:01.000Z' },
      ],
      nextCursor: 'next-page',
    });
    expect(acpSessionPage({ sessions: [] }, '/here')).toEqual({ sessions: [] });
  });

  it('a session with no absolute folder is listed under the agent folder, and its title says so', () => {
    fc.assert(
      fc.property(
        fc.option(fc.string(), { nil: undefined }),
        fc.option(fc.string(), { nil: undefined }),
        (cwd, title) => {
          const [info] = acpSessionPage(
            {
              sessions: [
                row('s', {
                  ...(cwd === undefined ? {} : { cwd }),
                  ...(title === undefined ? {} : { title }),
                }),
              ],
            },
            '/agent/folder',
          ).sessions;
          const absolute = cwd !== undefined && cwd.startsWith('/');
          expect(info!.cwd).toBe(absolute ? cwd : '/agent/folder');
          expect(info!.cwd.startsWith('/')).toBe(true);
          expect(info!.title!.endsWith(' (no folder recorded)')).toBe(!absolute);
          expect(info!.title!.startsWith(title ?? 'Session s')).toBe(true);
        },
      ),
    );
  });
});
