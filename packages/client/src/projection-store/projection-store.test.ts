import type { SessionListRow } from '@strand/protocol';
import { describe, expect, it, vi } from 'vitest';
import { applySessionList } from './apply-session-list.js';
import { ProjectionStore } from './projection-store.js';
import { SessionId } from '@strand/session';

function listRow(id: string, hints?: SessionListRow['hints']): SessionListRow {
  return {
    id,
    header: { version: 1, id: SessionId(id), createdAt: 1, isSeeded: false },
    live: false,
    busy: false,
    ...(hints === undefined ? {} : { hints }),
  };
}

describe('ProjectionStore', () => {
  it('get distinguishes unknown from an explicit null', () => {
    const store = new ProjectionStore();
    expect(store.get('s', 'title')).toEqual({ known: false });
    store.applyFrame('s', { key: 'title', value: null, seq: 0 });
    expect(store.get('s', 'title')).toEqual({ known: true, value: null, seq: 0 });
  });

  it('the list view and an opened session share rows: hints first, then the baseline converges them', () => {
    const store = new ProjectionStore();
    applySessionList(store, [listRow('a', { asOfSeq: 3, values: { title: 'hinted' } }), listRow('b')]);
    expect(store.get('a', 'title')).toEqual({ known: true, value: 'hinted', seq: 3 });
    expect(store.get('b', 'title')).toEqual({ known: false });
    expect(store.applyBaseline('a', { asOfSeq: 9, values: { title: 'exact', agentPreset: null } })).toEqual({
      kind: 'changed',
      keys: ['title', 'agentPreset'],
    });
    expect(store.get('a', 'title')).toEqual({ known: true, value: 'exact', seq: 9 });
    // A stale list refresh does not roll the opened session back.
    expect(
      applySessionList(store, [listRow('a', { asOfSeq: 5, values: { title: 'stale' } })]).get('a'),
    ).toEqual({
      kind: 'ignored',
    });
    expect(store.get('a', 'title')).toMatchObject({ value: 'exact' });
  });

  it('a reconnect baseline does not roll back a frame accepted at a later seq', () => {
    const store = new ProjectionStore();
    store.applyBaseline('s', { asOfSeq: 10, values: { title: 'a' } });
    store.applyFrame('s', { key: 'title', value: 'b', seq: 14 });
    expect(store.applyBaseline('s', { asOfSeq: 12, values: { title: 'a' } })).toEqual({ kind: 'ignored' });
    expect(store.get('s', 'title')).toEqual({ known: true, value: 'b', seq: 14 });
  });

  it('notifies subscribers of that session only, only on value changes', () => {
    const store = new ProjectionStore();
    const onA = vi.fn();
    const onB = vi.fn();
    store.subscribe('a', onA);
    const unsubscribeB = store.subscribe('b', onB);
    store.applyFrame('a', { key: 'title', value: 'x', seq: 1 });
    store.applyFrame('a', { key: 'title', value: 'x', seq: 2 }); // advanced, not changed
    store.applyFrame('a', { key: 'title', value: 'y', seq: 1 }); // ignored
    expect(onA).toHaveBeenCalledTimes(1);
    expect(onA).toHaveBeenCalledWith({ sessionId: 'a', keys: ['title'] });
    expect(onB).not.toHaveBeenCalled();
    unsubscribeB();
    store.applyFrame('b', { key: 'title', value: 'x', seq: 1 });
    expect(onB).not.toHaveBeenCalled();
  });

  it('keeps a stable rows reference between changes and a new one after', () => {
    const store = new ProjectionStore();
    store.applyFrame('s', { key: 'title', value: 'x', seq: 1 });
    const before = store.rows('s');
    store.applyFrame('s', { key: 'title', value: 'x', seq: 0 });
    expect(store.rows('s')).toBe(before);
    store.applyFrame('s', { key: 'title', value: 'y', seq: 2 });
    expect(store.rows('s')).not.toBe(before);
    expect(before.get('title')).toEqual({ value: 'x', seq: 1 });
  });

  it('a throwing subscriber is reported and the others still hear the change', () => {
    const reported: unknown[] = [];
    const store = new ProjectionStore((error) => reported.push(error));
    const second = vi.fn();
    store.subscribe('s', () => {
      throw new Error('boom');
    });
    store.subscribe('s', second);
    expect(store.applyFrame('s', { key: 'title', value: 'x', seq: 1 }).kind).toBe('changed');
    expect(second).toHaveBeenCalledOnce();
    expect(reported).toHaveLength(1);
  });

  it('forget drops every row of a session and tells its subscribers', () => {
    const store = new ProjectionStore();
    store.applyBaseline('s', { asOfSeq: 50, values: { title: 'old log', usage: null } });
    const listener = vi.fn();
    store.subscribe('s', listener);
    expect(store.forget('s')).toEqual({ kind: 'changed', keys: ['title', 'usage'] });
    expect(store.get('s', 'title')).toEqual({ known: false });
    expect(listener).toHaveBeenCalledWith({ sessionId: 's', keys: ['title', 'usage'] });
    expect(store.forget('s')).toEqual({ kind: 'ignored' });
  });

  it('reports invalid input without changing anything', () => {
    const store = new ProjectionStore();
    expect(store.applyHints('s', { asOfSeq: Number.NaN, values: { title: 'x' } }).kind).toBe('invalid');
    expect(store.get('s', 'title')).toEqual({ known: false });
  });
});
