import { RequestError } from '@agentclientprotocol/sdk';
import { StrandRpcError } from '@strand/protocol';
import { describe, expect, it } from 'vitest';
import { StrandAcpError, toAcpError } from './errors.js';

describe('toAcpError (any failure → the editor’s JSON-RPC error, code kept in data.code)', () => {
  it('a host not-found is ACP’s resource not found', () => {
    const error = toAcpError(new StrandRpcError('SESSION_QUERY_NOT_FOUND', -32010, 'no session x'));
    expect(error).toBeInstanceOf(RequestError);
    expect(error.code).toBe(-32002);
    expect(error.data).toEqual({ code: 'SESSION_QUERY_NOT_FOUND', message: 'no session x' });
  });

  it('any other typed refusal keeps its code beside -32603, never Strand’s integer', () => {
    const error = toAcpError(new StrandRpcError('SESSION_READ_ONLY', -32002, 'imported'));
    expect(error.code).toBe(-32603);
    expect(error.data).toMatchObject({ code: 'SESSION_READ_ONLY' });
  });

  it('the adapter’s own codes: invalid params and not open', () => {
    expect(toAcpError(new StrandAcpError('CLI_ACP_CONFIG_INVALID', 'x')).code).toBe(-32602);
    expect(toAcpError(new StrandRpcError('HOST_LIST_CURSOR_INVALID', -33805, 'altered')).code).toBe(-32602);
    expect(toAcpError(new StrandAcpError('CLI_ACP_SESSION_NOT_OPEN', 'x')).code).toBe(-32002);
    expect(toAcpError(new Error('boom')).data).toEqual({ code: 'CLI_ACP_FAILED', message: 'boom' });
  });
});
