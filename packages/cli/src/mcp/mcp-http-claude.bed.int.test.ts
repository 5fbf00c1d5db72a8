import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  bedHarness,
  dialogue,
  DRIVERS,
  openWorkspace,
  startModelEndpoint,
  toolOutputs,
  type ModelEndpoint,
  type Workspace,
} from '@strand/harness-bed';
import { afterAll, describe, expect, it } from 'vitest';
import { CODEX_PARENT, mcpCorpus } from '../testing/mcp-corpus.js';
import { startServe, type StrandProcess } from '../testing/strand-process.js';

/**
 * The real Claude Code (the bed's pin) given `strand serve`'s `/mcp` as an HTTP MCP server
 * (`--mcp-config` with `"type": "http"` and the token header): the scripted model asks it to call
 * Strand's `search_sessions`, and the tool result Claude Code sends back to the model is Strand's
 * answer, read through the host. Skipped, saying why, without the bed.
 */
const TOKEN = `mcp-claude-bed-token-${process.pid}`;
/** Claude Code's name for an MCP server's tool: `mcp__<server>__<tool>`. */
const TOOL = 'mcp__strand__search_sessions';

const bed = bedHarness('claude-code');
const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

describe('the real Claude Code with strand serve /mcp', { timeout: 300_000 }, () => {
  const title =
    bed.kind === 'missing'
      ? bed.reason
      : `Claude Code ${bed.installed.pin.version} calls search_sessions over HTTP and gets Strand's answer`;
  it.skipIf(bed.kind === 'missing')(title, async () => {
    if (bed.kind === 'missing') return;
    const root = mkdtempSync(path.join(tmpdir(), 'strand-mcp-claude-'));
    cleanup.push(() => rmSync(root, { recursive: true, force: true }));
    const data = mcpCorpus(root, { demo: false });
    const served = await startServe(data, ['--token', TOKEN]);
    const host: StrandProcess = served.process;
    cleanup.push(async () => {
      host.kill('SIGINT');
      await host.exited;
    });
    const origin = new URL(served.url).origin;

    const workspace: Workspace = await openWorkspace('claude-mcp');
    cleanup.push(() => workspace.remove());
    const config = path.join(workspace.root, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          strand: { type: 'http', url: `${origin}/mcp`, headers: { Authorization: `Bearer ${TOKEN}` } },
        },
      }),
    );
    const endpoint: ModelEndpoint = await startModelEndpoint(
      dialogue({
        threads: {
          main: [
            { toolCalls: [{ name: TOOL, input: { query: 'health', source: 'codex' } }] },
            (r) => ({ text: `Strand says: ${toolOutputs(r).at(-1) ?? '(nothing)'}` }),
          ],
        },
      }),
    );
    cleanup.push(() => endpoint.close());

    const run = await DRIVERS['claude-code'].prompt(bed.installed, workspace, endpoint, {
      text: 'Which session added a health endpoint? Ask Strand.',
      args: ['--mcp-config', config, '--strict-mcp-config', '--allowedTools', TOOL],
    });
    expect(endpoint.problems, `${run.stdout}\n${run.stderr}`).toEqual([]);
    const main = endpoint.thread('main');
    // Claude Code defers MCP tools (the model finds them with ToolSearch), so they are not in the
    // offered list; what it sent back for the call is the proof it reached Strand.
    // The tool result it sent back is Strand's answer: the session, and the hit's address on this host.
    const answer = toolOutputs(main[1]!.request).at(-1) ?? '';
    expect(answer).toContain(`${CODEX_PARENT}  "Add a health endpoint"  project="/home/dev/svc"  from=codex`);
    expect(answer).toMatch(new RegExp(`<${origin}/sessions/${CODEX_PARENT}\\?seq=\\d+>`));
    expect(run.stdout).toContain('Strand says:');
  });
});
