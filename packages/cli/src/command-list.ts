import type { Command } from 'commander';

/**
 * Every `strand` command, loaded only when it runs: `strand --help` and a mistyped command load
 * none of them, and `strand list` loads the read path, not the host's web server or the importers.
 * One entry per command; the `description` is what `strand --help` lists, and a test pins it to
 * the loaded command's own.
 */
export interface CommandEntry {
  readonly name: string;
  /** The command's arguments as its help shows them (`<id>`), for the top-level listing. */
  readonly args?: string;
  readonly description: string;
  readonly load: () => Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'serve',
    description: 'run the Strand host (JSON-RPC over WebSocket at /rpc) and the web UI',
    load: async () => (await import('./commands/serve.js')).serveCommand(),
  },
  {
    name: 'list',
    description: 'list sessions, most recently active first, with their title hints',
    load: async () => (await import('./commands/read-commands.js')).listCommand(),
  },
  {
    name: 'show',
    args: '<id>',
    description: 'show a session: header, projections and its last events',
    load: async () => (await import('./commands/read-commands.js')).showCommand(),
  },
  {
    name: 'follow',
    args: '<id>',
    description: 'print a session, then its live events as they are appended (Ctrl-C to stop)',
    load: async () => (await import('./commands/follow-command.js')).followCommand(),
  },
  {
    name: 'agents',
    args: '<id>',
    description: "list a session's subagents (the list_agents rows)",
    load: async () => (await import('./commands/read-commands.js')).agentsCommand(),
  },
  {
    name: 'search',
    args: '<text...>',
    description: 'search titles and message text across sessions (literal; "quoted words" match as a phrase)',
    load: async () => (await import('./commands/read-commands.js')).searchCommand(),
  },
  {
    name: 'export',
    args: '<id>',
    description:
      'write a session out as Markdown, HTML or JSON, or as a Claude Code, Codex or Gemini CLI transcript to continue it there',
    load: async () => (await import('./commands/export-command.js')).exportCommand(),
  },
  {
    name: 'usage',
    description: 'token use and cost over time, sessions, projects, models or harnesses',
    load: async () => (await import('./commands/usage-command.js')).usageCommand(),
  },
  {
    name: 'share',
    args: '[id]',
    description: 'make a read-only link to a session (expiring, revocable), list links, or revoke one',
    load: async () => (await import('./commands/share-command.js')).shareCommand(),
  },
  {
    name: 'demo',
    description:
      'write the demo corpus (titled sessions, a subagent tree, a corrupt child, a 50k-event session)',
    load: async () => (await import('./commands/demo.js')).demoCommand(),
  },
  {
    name: 'doctor',
    description:
      'verify every session log; optionally repair torn tails and rebuild the search index and projection cache',
    load: async () => (await import('./commands/doctor.js')).doctorCommand(),
  },
  {
    name: 'import',
    args: '<harness> [dir]',
    description:
      "import another harness's transcripts as Strand sessions (re-running imports only what changed)",
    load: async () => (await import('./commands/import.js')).importCommand(),
  },
  {
    name: 'mcp',
    description:
      'serve Strand sessions to agents over MCP on stdio (read-only): search, list, read, list_agents',
    load: async () => (await import('./mcp/mcp-command.js')).mcpCommand(),
  },
  {
    name: 'acp',
    description: "Strand's agent for editors (Zed…): the Agent Client Protocol on stdio",
    load: async () => (await import('./acp/acp-command.js')).acpCommand(),
  },
];
