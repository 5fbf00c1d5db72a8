import { describe, expect, it } from 'vitest';
import { ID_SCAN_LIMIT, readRequestId } from './request-id.js';

describe('readRequestId: the id a refusal answers', () => {
  it('reads a number or string id wherever it stands among the top-level keys', () => {
    expect(readRequestId('{"jsonrpc":"2.0","id":7,"method":"session.list","params":{}}')).toBe(7);
    expect(readRequestId('{"jsonrpc":"2.0","id":"a-1","method":"session.list"}')).toBe('a-1');
    expect(readRequestId('{"method":"m","params":{"id":1,"x":[{"id":2}],"s":"\\"id\\":3"},"id":4}')).toBe(4);
    expect(readRequestId(' { "id" : -2.5e1 } ')).toBe(-25);
    expect(readRequestId('{"i\\u0064":"escaped key"}')).toBe('escaped key');
    expect(readRequestId(Buffer.from('{"jsonrpc":"2.0","id":12}'))).toBe(12);
  });

  it('is null when no id can be read, as JSON-RPC answers such a request', () => {
    for (const frame of [
      '',
      'not json',
      '[{"id":1}]',
      '{"jsonrpc":"2.0","method":"m"}',
      '{"id":null}',
      '{"id":{"a":1}}',
      '{"id":true}',
      '{"params":{"id":1}}',
      '{"id":"unterminated',
      '{"id":12',
    ])
      expect(readRequestId(frame), frame).toBeNull();
  });

  it('stops at the scan limit: an id behind a larger value is not read', () => {
    const pad = 'x'.repeat(ID_SCAN_LIMIT);
    expect(readRequestId(`{"params":{"pad":"${pad}"},"id":1}`)).toBeNull();
    expect(readRequestId(`{"id":1,"params":{"pad":"${pad}"}}`)).toBe(1);
  });
});
