import { describe, expect, it } from 'vitest';
import { parseFollowNotification } from './follow-frames.js';

const address = { followId: 'f1', generation: 2 };

describe('parseFollowNotification', () => {
  it('parses each follow frame kind', () => {
    expect(parseFollowNotification('follow.events', { ...address, events: [] })).toEqual({
      kind: 'frame',
      frame: { ...address, kind: 'events', events: [] },
    });
    expect(
      parseFollowNotification('follow.projection', { ...address, key: 'title', value: null, seq: 4 }),
    ).toEqual({
      kind: 'frame',
      frame: { ...address, kind: 'projection', key: 'title', value: null, seq: 4 },
    });
    expect(parseFollowNotification('follow.state', { ...address, live: true, busy: false })).toEqual({
      kind: 'frame',
      frame: { ...address, kind: 'state', live: true, busy: false },
    });
    expect(parseFollowNotification('follow.resync', { ...address, reason: 'behind' })).toEqual({
      kind: 'frame',
      frame: { ...address, kind: 'resync', reason: 'behind' },
    });
    // A newer host's extra field is left behind: the notice carries nothing but its address.
    expect(parseFollowNotification('follow.subagents', { ...address, childId: 'c1' })).toEqual({
      kind: 'frame',
      frame: { ...address, kind: 'subagents' },
    });
  });

  it('a projection frame without a value key is invalid (null must be explicit)', () => {
    expect(parseFollowNotification('follow.projection', { ...address, key: 'title', seq: 4 }).kind).toBe(
      'invalid',
    );
  });

  it('refuses frames without an address', () => {
    expect(parseFollowNotification('follow.events', { events: [] }).kind).toBe('invalid');
  });

  it('leaves other notifications, and follow notifications a newer host added, alone', () => {
    expect(parseFollowNotification('catalog.changed', {})).toEqual({ kind: 'other' });
    expect(parseFollowNotification('follow.typing', address)).toEqual({ kind: 'other' });
  });

  it('refuses a state frame whose stopped is not the write-failure shape', () => {
    expect(
      parseFollowNotification('follow.state', { ...address, live: true, busy: false, stopped: { code: 'X' } })
        .kind,
    ).toBe('invalid');
  });

  it.each([
    ['a malformed event', [{ type: 'a', seq: 1, time: 0, data: null }, { seq: 2 }], 'events.1'],
    [
      'a batch that is not contiguous',
      [
        { type: 'a', seq: 1, time: 0, data: null },
        { type: 'a', seq: 3, time: 0, data: null },
      ],
      'expected seq 2, got 3',
    ],
    ['events that are not a list', 'x', 'events'],
  ])(
    'hands %s on as a broken-events frame (applying it re-opens) rather than dropping it',
    (_name, events, why) => {
      const parsed = parseFollowNotification('follow.events', { ...address, events });
      expect(parsed).toMatchObject({ kind: 'frame', frame: { ...address, kind: 'brokenEvents' } });
      if (parsed.kind === 'frame' && parsed.frame.kind === 'brokenEvents')
        expect(parsed.frame.reason).toContain(why);
    },
  );
});
