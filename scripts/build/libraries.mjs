// The library packages: the ones another project can install (issue 28). Packing, the API
// reference and the version check read this list and nothing else; a new library is one line here.
// Not libraries: runtime, host, mcp, export, postgres, agent, cli, web, import, test-support (applications,
// the composition with agents, and fixtures).
export const LIBRARY_PACKAGES = [
  'session',
  'persistence',
  'projection',
  'projection-cache',
  'query',
  'search',
  'subagent',
  'protocol',
  'client',
  'stack',
];
