import { ERROR_TABLE, RENAMED_ERROR_CODES, StrandRpcError } from '@strand/protocol';
import { describe, expect, it } from 'vitest';
import { currentCodeName, decodeIncoming, toRpcError } from './rpc-codec.js';

describe('decodeIncoming', () => {
  it('classifies results, errors and notifications', () => {
    expect(decodeIncoming('{"jsonrpc":"2.0","id":3,"result":{"ok":true}}')).toEqual({
      kind: 'result',
      id: 3,
      result: { ok: true },
    });
    expect(decodeIncoming('{"jsonrpc":"2.0","method":"follow.state","params":{"live":true}}')).toEqual({
      kind: 'notification',
      method: 'follow.state',
      params: { live: true },
    });
    const error = decodeIncoming(
      '{"jsonrpc":"2.0","id":"a","error":{"code":-32020,"message":"gone","data":{"code":"SESSION_QUERY_NOT_FOUND","id":"s"}}}',
    );
    expect(error.kind).toBe('error');
    if (error.kind !== 'error') return;
    expect(error.id).toBe('a');
    expect(error.error).toBeInstanceOf(StrandRpcError);
    expect(error.error).toMatchObject({
      code: 'SESSION_QUERY_NOT_FOUND',
      rpcCode: -32020,
      message: 'gone',
      data: { id: 's' },
    });
  });

  it('keeps an uncorrelated error (id null) as an error, not a crash', () => {
    expect(
      decodeIncoming('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}'),
    ).toMatchObject({
      kind: 'error',
      id: null,
      error: { code: 'RPC_PARSE_ERROR' },
    });
  });

  it('refuses what is not JSON-RPC 2.0 without throwing', () => {
    expect(decodeIncoming('not json').kind).toBe('invalid');
    expect(decodeIncoming('{"id":1,"result":1}').kind).toBe('invalid');
    expect(decodeIncoming('[1,2]').kind).toBe('invalid');
    expect(decodeIncoming(new Uint8Array([1])).kind).toBe('invalid');
    expect(decodeIncoming('{"jsonrpc":"2.0","id":{},"result":1}').kind).toBe('invalid');
  });
});

describe('toRpcError', () => {
  it('takes data.code as the stable code', () => {
    expect(toRpcError({ code: -32050, message: 'busy', data: { code: 'AGENT_BUSY' } })).toMatchObject({
      code: 'AGENT_BUSY',
      rpcCode: -32050,
    });
  });

  it('falls back to the error table by integer code, then to RPC_INTERNAL_ERROR', () => {
    expect(toRpcError({ code: -32601, message: 'no' }).code).toBe('RPC_METHOD_NOT_FOUND');
    expect(toRpcError({ code: 12, message: 'odd' }).code).toBe('RPC_INTERNAL_ERROR');
    expect(toRpcError('garbage').code).toBe('RPC_INTERNAL_ERROR');
  });
});

describe('codes a host sends under their previous names', () => {
  it('reads an old name as the code that replaced it, keeping the integer and the data', () => {
    const error = toRpcError({
      code: -32051,
      message: 'this host runs no agents',
      data: { code: 'AGENT_FAILED', sessionId: 's' },
    });
    expect(error.code).toBe('HOST_AGENTS_UNAVAILABLE');
    expect(error.rpcCode).toBe(-32051);
    expect(error.data).toMatchObject({ sessionId: 's' });
  });

  it('maps every old runtime name to its RUNTIME_ code', () => {
    expect(currentCodeName('HOST_RUNTIME_CONFIG_INVALID')).toBe('RUNTIME_CONFIG_INVALID');
    expect(currentCodeName('HOST_PRESETS_INVALID')).toBe('RUNTIME_PRESETS_INVALID');
    expect(currentCodeName('HOST_MODELS_INVALID')).toBe('RUNTIME_MODELS_INVALID');
  });

  it('leaves current codes and codes it does not know as they are', () => {
    expect(currentCodeName('HOST_AGENTS_UNAVAILABLE')).toBe('HOST_AGENTS_UNAVAILABLE');
    expect(currentCodeName('SOME_FUTURE_CODE')).toBe('SOME_FUTURE_CODE');
  });

  it('maps only to codes of the current table, each keeping its integer', () => {
    for (const [old, current] of RENAMED_ERROR_CODES) {
      expect(Object.hasOwn(ERROR_TABLE, old)).toBe(false);
      expect(toRpcError({ code: ERROR_TABLE[current].rpc, message: 'm', data: { code: old } }).code).toBe(
        current,
      );
    }
    expect(RENAMED_ERROR_CODES.size).toBeGreaterThanOrEqual(4);
  });
});
