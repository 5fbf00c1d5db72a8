export { createStrandMcpServer, MCP_SERVER_NAME, type StrandMcpOptions } from './server.js';
export { mcpHttpHandler, MAX_MCP_BODY_BYTES, type McpRequestContext } from './http.js';
export type { StrandReader, WireCaller } from './reader.js';
export type { UsageTable } from './usage-summary.js';
export { STRAND_MCP_ERROR_CODES, StrandMcpError, type StrandMcpErrorCode } from './errors.js';
export { sessionAddress } from './addresses.js';
export { titleOf } from './session-facts.js';
