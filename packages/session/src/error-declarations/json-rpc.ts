import { defineErrors } from '../define-errors.js';

/** The JSON-RPC 2.0 codes the host answers with (the protocol's own); their integers are the spec's. */
export const JSON_RPC_ERRORS = defineErrors('json-rpc', {
  RPC_PARSE_ERROR: { meaning: 'The frame is not valid JSON.', number: -32700 },
  RPC_INVALID_REQUEST: { meaning: 'The frame is not a JSON-RPC 2.0 request.', number: -32600 },
  RPC_METHOD_NOT_FOUND: { meaning: 'No such method.', number: -32601 },
  RPC_INVALID_PARAMS: { meaning: 'The params do not match the method schema.', number: -32602 },
  RPC_INTERNAL_ERROR: { meaning: 'The host failed unexpectedly; it keeps serving.', number: -32603 },
});
