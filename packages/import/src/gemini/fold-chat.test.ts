import { describe, expect, it } from 'vitest';
import { FileReports } from '../mapping/file-reports.js';
import { ChatFolder, foldWholeJson } from './fold-chat.js';

const ids = (folder: ChatFolder) => folder.result().messages.map((m) => m.record.id);

function fold(records: object[]): ChatFolder {
  const folder = new ChatFolder(new FileReports('f'));
  records.forEach((r, i) => folder.line({ text: JSON.stringify(r), line: i + 1, terminated: true }, i === 0));
  return folder;
}

describe('ChatFolder', () => {
  it('upserts rows by id in first-written position', () => {
    const folder = fold([
      { sessionId: 's' },
      { id: 'a', type: 'user' },
      { id: 'b', type: 'gemini', content: 'v1' },
      { id: 'c', type: 'user' },
      { id: 'b', type: 'gemini', content: 'v2' },
    ]);
    expect(ids(folder)).toEqual(['a', 'b', 'c']);
    expect(folder.result().messages[1]!.record.content).toBe('v2');
  });

  it("messages a $set lists before any message row are the chat's first messages, ids included (0.6x)", () => {
    // gemini-cli 0.6x opens a chat with `$set.messages: [<session_context>]`; on a resume it
    // writes a stub file with only that list, which must read as a copy of the chat.
    const context = { id: 'ctx', type: 'user', content: [{ text: '<session_context>' }] };
    const main = fold([
      { sessionId: 's' },
      { $set: { messages: [context] } },
      { id: 'a', type: 'user' },
      { $set: { messages: [context, { id: 'a', type: 'user' }] } },
      { id: 'b', type: 'gemini' },
    ]);
    expect(ids(main)).toEqual(['ctx', 'a', 'b']);
    expect(main.rows.map((r) => (r.kind === 'message' ? r.message.record.id : r.kind))).toEqual([
      'ctx',
      'a',
      'b',
    ]);
    expect(ids(fold([{ sessionId: 's' }, { $set: { messages: [context] } }]))).toEqual(['ctx']);
  });

  it('$rewindTo removes the target and everything after it; an unknown target clears all', () => {
    expect(
      ids(
        fold([
          { sessionId: 's' },
          { id: 'a', type: 'user' },
          { id: 'b', type: 'gemini' },
          { id: 'c', type: 'user' },
          { $rewindTo: 'b' },
          { id: 'd', type: 'user' },
        ]),
      ),
    ).toEqual(['a', 'd']);
    expect(ids(fold([{ sessionId: 's' }, { id: 'a', type: 'user' }, { $rewindTo: 'zzz' }]))).toEqual([]);
  });

  it('patches metadata with $set and uses $set.messages only when there are no message rows', () => {
    const withRows = fold([
      { sessionId: 's' },
      { id: 'a', type: 'user' },
      { $set: { messages: [{ id: 'x', type: 'user' }], summary: 'S' } },
    ]);
    expect(ids(withRows)).toEqual(['a']);
    expect(withRows.result().summary).toEqual({ text: 'S', after: 1 });
    expect(
      ids(fold([{ sessionId: 'a2a-server' }, { $set: { messages: [{ id: 'x', type: 'user' }] } }])),
    ).toEqual(['x']);
  });

  it('reports lines it cannot place', () => {
    const reports = new FileReports('f');
    const folder = new ChatFolder(reports);
    folder.line({ text: '{"sessionId":"s"}', line: 1, terminated: true }, true);
    folder.line({ text: '{"what":1}', line: 2, terminated: true }, false);
    folder.line({ text: '{"id":"m","ty', line: 3, terminated: false }, false);
    expect(reports.list().map((r) => r.line)).toEqual([2, 3]);
  });

  it('folds a whole-JSON document the same way', () => {
    const folded = foldWholeJson(
      {
        sessionId: 's',
        startTime: 't',
        messages: [{ id: 'a', type: 'user' }, 'junk', { id: 'a', type: 'user', content: 'again' }],
      },
      new FileReports('f'),
    );
    expect(folded.messages.map((m) => m.record.content)).toEqual(['again']);
    expect(folded.meta).toEqual({ sessionId: 's', startTime: 't' });
  });

  it('messages without a line of their own are named by their $set line or their index', () => {
    const folder = fold([
      { sessionId: 's' },
      { $set: { messages: [{ id: 'a', type: 'user' }, 7, { id: 'b' }] } },
    ]);
    expect(folder.result().messages.map(({ line, index }) => ({ line, index }))).toEqual([
      { line: 2, index: 0 },
      { line: 2, index: 2 },
    ]);
    const reports = new FileReports('whole.json');
    foldWholeJson({ sessionId: 's', messages: [{ id: 'a', type: 'user' }, 'junk', { id: 'b' }] }, reports);
    expect(reports.list()).toEqual([
      { file: 'whole.json', line: null, kind: 'skipped-record', reason: 'messages[1]: not an object' },
      {
        file: 'whole.json',
        line: null,
        kind: 'skipped-record',
        reason: 'messages[2]: message b has no type',
      },
    ]);
  });
});
