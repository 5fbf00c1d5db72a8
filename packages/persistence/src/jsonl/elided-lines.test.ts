import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SessionSeq, type SessionEvent } from '@strand/session';
import { losslessJson } from '@strand/test-support';
import { plainEnvelope } from './elided-lines.js';
import { inflateGroupElided } from './frame-groups.js';
import { FrameKind, META_SIZE, encodeFrame } from './zstd-frames.js';

/** Types as they occur, plus the awkward ones: quotes, backslashes, non-ASCII, control characters. */
const types = fc.oneof(
  fc.constantFrom('tool/call', 'tool/result', 'assistant/message', 'user/message', 'turn/start'),
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.constantFrom('x/"q"', 'x\\y', 'héllo/ü', 'tab\there', 'x/😀'),
);
const event = (seq: number): fc.Arbitrary<SessionEvent> =>
  fc.record({
    type: types,
    seq: fc.constant(SessionSeq(seq)),
    time: fc.oneof(fc.nat(), fc.constant(0), fc.constant(Number.MAX_SAFE_INTEGER)),
    data: losslessJson(),
  }) as fc.Arbitrary<SessionEvent>;
const dataTypes = fc.uniqueArray(types, { maxLength: 3 }).map((list) => new Set(list));

/** Printable ASCII without quote or backslash: the types the fast path must recognise. */
const plainType = (type: string): boolean => /^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/.test(type);

describe('plainEnvelope', () => {
  it('elides exactly the plainly written lines of unrequested types, and returns their exact envelope (property)', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1_000_000 }).chain(event), dataTypes, (e, wanted) => {
        const line = Buffer.from(JSON.stringify(e), 'utf8');
        const elided = plainEnvelope(line, 0, line.length, e.seq, wanted);
        const expectElided = !wanted.has(e.type) && plainType(e.type);
        expect(elided !== undefined).toBe(expectElided);
        if (elided !== undefined) expect(elided).toEqual({ type: e.type, time: e.time });
        // A line at another seq is never elided: the full parse then judges it.
        expect(plainEnvelope(line, 0, line.length, e.seq + 1, wanted)).toBeUndefined();
      }),
    );
  });

  it('never throws and never elides a line that is not an envelope as Strand writes it (property)', () => {
    const lines = fc.oneof(
      fc.string(),
      fc.constantFrom(
        '{"type":"a","seq":0,"time":1,"data":}',
        '{"type":"a","seq":00,"time":1,"data":{}}',
        '{"type":"a","seq":0,"time":-1,"data":{}}',
        '{"type":"a","seq":0,"time":1.5,"data":{}}',
        '{"type":"","seq":0,"time":1,"data":{}}',
        '{"seq":0,"type":"a","time":1,"data":{}}',
        '{"type":"a","seq":0,"time":12345678901234567,"data":{}}',
      ),
    );
    fc.assert(
      fc.property(lines, (text) => {
        const buf = Buffer.from(text, 'utf8');
        const elided = plainEnvelope(buf, 0, buf.length, 0, new Set());
        if (elided !== undefined)
          expect(text.startsWith(`{"type":"${elided.type}","seq":0,"time":`)).toBe(true);
      }),
    );
    for (const bad of [
      '{"type":"a","seq":0,"time":1,"data":}',
      '{"type":"a","seq":00,"time":1,"data":{}}',
      '{"type":"a","seq":0,"time":-1,"data":{}}',
      '{"type":"a","seq":0,"time":1.5,"data":{}}',
      '{"seq":0,"type":"a","time":1,"data":{}}',
      '{"type":"a","seq":0,"time":12345678901234567,"data":{}}',
      '{"type":"a","seq":0,"time":9007199254740993,"data":{}}',
    ]) {
      const buf = Buffer.from(bad, 'latin1');
      expect(plainEnvelope(buf, 0, buf.length, 0, new Set()), bad).toBeUndefined();
    }
  });
});

describe('inflateGroupElided', () => {
  it('a group of frames reads back as the full parse with unrequested data elided, in seq order (property)', () => {
    const frames = fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 5 }).chain((sizes) => {
      let seq = 0;
      return fc.tuple(
        ...sizes.map((size) => {
          const from = seq;
          seq += size;
          return fc.tuple(...Array.from({ length: size }, (_, i) => event(from + i)));
        }),
      );
    });
    fc.assert(
      fc.property(frames, dataTypes, (groups, wanted) => {
        const all = groups.flat();
        const encoded = groups.map((events, i) => {
          const content = Buffer.from(events.map((e) => JSON.stringify(e) + '\n').join(''), 'utf8');
          const frame = encodeFrame(FrameKind.Events, events[0]?.seq ?? i, events.length, content);
          return { bytes: frame.subarray(META_SIZE), count: events.length };
        });
        const group = inflateGroupElided(encoded, wanted, 0);
        expect(group.error).toBeNull();
        expect(group.done).toBe(encoded.length);
        const parsed = (group.text === null ? [] : JSON.parse(group.text)) as SessionEvent[];
        let next = 0;
        const read = group.slots.map((slot) => slot ?? parsed[next++]!);
        expect(next).toBe(parsed.length);
        expect(read).toHaveLength(all.length);
        read.forEach((r, i) => {
          const e = all[i]!;
          if (r.data === null && e.data !== null) expect(wanted.has(e.type)).toBe(false);
          else expect(r).toEqual(e);
          expect({ type: r.type, seq: r.seq, time: r.time }).toEqual({
            type: e.type,
            seq: e.seq,
            time: e.time,
          });
        });
      }),
    );
  });
});
