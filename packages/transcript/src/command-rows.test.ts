import { describe, expect, it } from 'vitest';
import type { WireEvent } from '@strand/protocol';
import { commandRows } from './command-rows.js';

const at = (seq: number, type: string, data: WireEvent['data']): WireEvent => ({
  seq,
  type,
  time: seq,
  data,
});
const out = (seq: number, text: string): WireEvent =>
  at(seq, 'session/command-output', { text, stream: 'stdout' });

describe('commandRows', () => {
  it('gives each output to the last command before it; one before any command stays alone', () => {
    const rows = commandRows([
      out(0, 'from a command outside the window'),
      at(1, 'session/command', { name: 'compact' }),
      out(2, 'Compacted'),
      at(3, 'turn/end', { reason: 'completed' }),
      out(4, 'still compact’s'),
      at(5, 'session/command', { name: 'model', args: 'opus' }),
    ]);
    expect([...rows.attached]).toEqual([2, 4]);
    expect(rows.outputs.get(1)?.map((o) => o.seq)).toEqual([2, 4]);
    expect(rows.outputs.get(5)).toEqual([]);
  });
});
