import { describe, expect, it } from 'vitest';
import recorded from './error-numbers.snapshot.json' with { type: 'json' };
import { ERROR_TABLE, RENAMED_ERROR_CODES } from './errors.js';

interface Snapshot {
  readonly numbers: Readonly<Record<string, number>>;
  readonly retired: Readonly<Record<string, number>>;
}

const snapshot: Snapshot = recorded;
const table = Object.entries(ERROR_TABLE).map(([code, entry]) => ({ code, rpc: entry.rpc }));

// Wire integers never change: a client may switch on one, a log line or a test names one.
describe('the wire integers against error-numbers.snapshot.json', () => {
  it('gives every recorded code the number it was recorded with', () => {
    const moved = table
      .filter(({ code, rpc }) => Object.hasOwn(snapshot.numbers, code) && snapshot.numbers[code] !== rpc)
      .map(({ code, rpc }) => ({ code, was: snapshot.numbers[code], now: rpc }));
    expect(moved).toEqual([]);
  });

  it('has every code recorded (append a new code to the snapshot with its number)', () => {
    const unrecorded = table
      .filter(({ code }) => !Object.hasOwn(snapshot.numbers, code))
      .map(({ code, rpc }) => `"${code}": ${rpc}`);
    expect(unrecorded).toEqual([]);
  });

  it('keeps every recorded code in the table, or retired (a removed code keeps its number out of use)', () => {
    const gone = Object.keys(snapshot.numbers).filter((code) => !Object.hasOwn(ERROR_TABLE, code));
    expect(gone).toEqual([]);
  });

  it('never gives a retired number, or one number, to two codes', () => {
    const retired = new Set(Object.values(snapshot.retired));
    expect(table.filter(({ rpc }) => retired.has(rpc))).toEqual([]);
    const recorded = [...Object.values(snapshot.numbers), ...retired];
    expect(recorded.length).toBe(new Set(recorded).size);
  });

  it('records a renamed code under its new name only', () => {
    const stale = [...RENAMED_ERROR_CODES.keys()].filter(
      (old) => Object.hasOwn(snapshot.numbers, old) || Object.hasOwn(ERROR_TABLE, old),
    );
    expect(stale).toEqual([]);
  });
});
