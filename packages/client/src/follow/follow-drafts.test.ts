import { describe, expect, it } from 'vitest';
import type { WireEvent } from '@strand/protocol';
import { ProjectionStore } from '../projection-store/projection-store.js';
import { drain, evs, ScriptedTransport, snapshotOf } from '../test/scripted-transport.js';
import { FollowDrafts } from './follow-drafts.js';
import { SessionFollower } from './session-follower.js';

const at = (seq: number, type: string, data: WireEvent['data'] = {}): WireEvent => ({
  type,
  seq,
  time: seq,
  data,
});

/** A follower showing generation 1 of `f1` with events [0, 3), and its drafts. */
async function following() {
  const transport = new ScriptedTransport();
  const follower = new SessionFollower({ connection: transport, store: new ProjectionStore() });
  const drafts = new FollowDrafts(transport, follower);
  const seen: (string | null)[] = [];
  drafts.subscribe((draft) => seen.push(draft?.text ?? null));
  const opened = follower.follow('s');
  transport
    .take('session.follow')
    .resolve(snapshotOf({ followId: 'f1', generation: 1, firstSeq: 0, cursor: 3 }));
  await opened;
  const draft = (step: number, text: string, followId = 'f1', generation = 1): void =>
    transport.notify('follow.draft', { followId, generation, step, text });
  return { transport, follower, drafts, seen, draft };
}

describe('FollowDrafts', () => {
  it('shows the latest draft of the running step, then drops it for good once the assistant/message is applied', async () => {
    const { transport, drafts, seen, draft } = await following();
    transport.events('f1', 1, [at(3, 'step/start')]);
    await drain();
    draft(3, 'Hel');
    draft(3, 'Hello');
    expect(drafts.draft).toEqual({ step: 3, text: 'Hello' });
    transport.events('f1', 1, [at(4, 'assistant/message', { content: 'Hello!' })]);
    await drain();
    expect(drafts.draft).toBeNull();
    // A late frame of the settled step does not bring the draft back.
    draft(3, 'Hello');
    expect(drafts.draft).toBeNull();
    expect(seen).toEqual(['Hel', 'Hello', null]);
  });

  it('holds a draft that outran its step/start until that event is applied', async () => {
    const { transport, drafts, draft } = await following();
    draft(3, 'early');
    expect(drafts.draft).toBeNull();
    transport.events('f1', 1, [at(3, 'step/start')]);
    await drain();
    expect(drafts.draft).toEqual({ step: 3, text: 'early' });
  });

  it('drops the draft on resync and on reconnect, and ignores drafts of other generations and malformed ones', async () => {
    const { transport, follower, drafts, draft } = await following();
    transport.events('f1', 1, [at(3, 'step/start')]);
    await drain();
    draft(3, 'old generation', 'f1', 0);
    draft(3, 'another follow', 'f9', 1);
    transport.notify('follow.draft', { followId: 'f1', generation: 1, step: -1, text: 'bad' });
    transport.notify('follow.draft', { followId: 'f1', generation: 1, step: 3 });
    expect(drafts.draft).toBeNull();

    draft(3, 'shown');
    expect(drafts.draft?.text).toBe('shown');
    transport.notify('follow.resync', { followId: 'f1', generation: 1, reason: 'slow-consumer' });
    await drain();
    transport
      .take('session.follow')
      .resolve(snapshotOf({ followId: 'f2', generation: 2, firstSeq: 0, cursor: 4 }));
    await drain();
    expect(follower.view.shown?.generation).toBe(2);
    expect(drafts.draft).toBeNull();

    draft(3, 'again', 'f2', 2);
    expect(drafts.draft?.text).toBe('again');
    transport.setState('reconnecting');
    expect(drafts.draft).toBeNull();
    drafts.close();
  });

  it('drops the draft when the session stops on a failed write, and shows none of its step after', async () => {
    const { transport, drafts, seen, draft } = await following();
    transport.events('f1', 1, [at(3, 'step/start')]);
    await drain();
    draft(3, 'unsaved');
    expect(drafts.draft?.text).toBe('unsaved');
    const stopped = { code: 'SESSION_WRITE_FAILED', message: 'write failed (EIO)' };
    transport.notify('follow.state', { followId: 'f1', generation: 1, live: true, busy: true, stopped });
    await drain();
    expect(drafts.draft).toBeNull();
    // A frame the host had already queued does not bring it back.
    draft(3, 'unsaved and more');
    expect(drafts.draft).toBeNull();
    expect(seen).toEqual(['unsaved', null]);
  });

  it('never adds a draft to the follower’s events', async () => {
    const { transport, follower, draft } = await following();
    transport.events('f1', 1, [at(3, 'step/start')]);
    await drain();
    draft(3, 'transient');
    expect(follower.view.shown?.events.map((e) => e.seq)).toEqual([...evs(0, 3).map((e) => e.seq), 3]);
    expect(JSON.stringify(follower.view)).not.toContain('transient');
  });
});
