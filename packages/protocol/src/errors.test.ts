import { describe, expect, it } from 'vitest';
import { ERROR_TABLE } from './errors.js';

describe('the error table', () => {
  it('gives every stable code its own JSON-RPC integer, in the server-error range or a JSON-RPC one', () => {
    const byRpc = new Map<number, string[]>();
    for (const [code, entry] of Object.entries(ERROR_TABLE)) {
      byRpc.set(entry.rpc, [...(byRpc.get(entry.rpc) ?? []), code]);
      expect(Number.isInteger(entry.rpc)).toBe(true);
      expect(entry.meaning.length).toBeGreaterThan(0);
    }
    const shared = [...byRpc.values()].filter((codes) => codes.length > 1);
    expect(shared).toEqual([]);
  });
});
