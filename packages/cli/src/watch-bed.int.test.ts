import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bedHarness,
  claudeScenarios,
  codexScenarios,
  DRIVERS,
  geminiScenarios,
  piScenarios,
  opencodeScenarios,
  qwenScenarios,
  copilotScenarios,
  kiloScenarios,
  clineScenarios,
  openWorkspace,
  runScenario,
  type BedHarness,
  type ScenarioDefinition,
} from '@strand/harness-bed';
import type { WireEvent } from '@strand/protocol';
import { eventually } from '@strand/test-support';
import { RpcTestClient } from '@strand/runtime/testing';
import { follow, listed, oneShot, plain, serveWatching } from './testing/serve-watch.js';
import type { StrandProcess } from './testing/strand-process.js';

/**
 * Live ingest of what a real harness writes while it writes it: `strand serve --watch` follows
 * the harness's transcript folder while the pinned CLI runs a two-prompt scenario (the second
 * prompt resumes the session in a new process, tool calls run for real). Each prompt reaches a
 * connected follower (the test waits for the event), and what the follower received equals a
 * one-shot import of the finished files. Skipped, saying why, without the bed.
 */

const SCENARIOS: Readonly<Record<BedHarness, readonly ScenarioDefinition[]>> = {
  'claude-code': claudeScenarios,
  codex: codexScenarios,
  gemini: geminiScenarios,
  pi: piScenarios,
  opencode: opencodeScenarios,
  qwen: qwenScenarios,
  copilot: copilotScenarios,
  kilo: kiloScenarios,
  cline: clineScenarios,
};

let hosts: StrandProcess[] = [];
let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const host of hosts) host.kill('SIGKILL');
  await Promise.all(hosts.map((h) => h.exited));
  for (const step of cleanup.reverse()) await step();
  hosts = [];
  cleanup = [];
});

const promptOf = (events: readonly WireEvent[], text: string): boolean =>
  events.some((e) => {
    const data = e.data as { author?: unknown; content?: unknown } | null;
    return e.type === 'user/message' && data?.author === 'human' && data.content === text;
  });

// A real harness run and its waits (hang guards of `until`) can take minutes on a loaded machine.
describe('strand serve --watch over a real harness', { timeout: 300_000 }, () => {
  for (const harness of ['claude-code', 'codex', 'gemini', 'pi', 'qwen', 'copilot'] as const) {
    const bed = bedHarness(harness);
    const title =
      bed.kind === 'missing'
        ? bed.reason
        : `${harness} ${bed.installed.pin.version}: each prompt reaches a follower as it is written, and the follower ends equal to a one-shot import`;
    it.skipIf(bed.kind === 'missing')(title, async () => {
      if (bed.kind === 'missing') return;
      const workspace = await openWorkspace(`${harness}-watch`);
      cleanup.push(() => workspace.remove());
      const folders = mkdtempSync(path.join(tmpdir(), 'strand-watch-bed-'));
      cleanup.push(() => rmSync(folders, { recursive: true, force: true }));
      const root = DRIVERS[harness].transcriptRoot(workspace);
      // The folder is watched before the harness creates anything in it.
      mkdirSync(root, { recursive: true });
      const served = await serveWatching(harness, root, path.join(folders, 'data'));
      hosts.push(served.host);
      const client = await RpcTestClient.open(served.rpcUrl);
      cleanup.push(() => client.close());

      let followed: Awaited<ReturnType<typeof follow>> | undefined;
      let sessionId: string | undefined;
      const definition = SCENARIOS[harness].find((s) => s.name === 'resume')!;
      await runScenario(bed.installed, definition, {
        workspace,
        async afterPrompt(run, prompt) {
          if (followed === undefined) {
            await eventually(
              async () => (await listed(client)).some((r) => r.header.source?.sourceId === run.sessionId),
              `the ${harness} session listed`,
            );
            sessionId = (await listed(client)).find((r) => r.header.source?.sourceId === run.sessionId)!.id;
            followed = await follow(client, sessionId);
          }
          const seen = followed;
          await eventually(
            () => promptOf(seen.events(), prompt.text),
            `the prompt "${prompt.text}" at the follower`,
          ).catch((error: unknown) => {
            // What the host reported about the files (a copy, a failure) is the first clue.
            throw new Error(`${(error as Error).message}; the host said:\n${served.host.stderr}`);
          });
        },
      });
      const expected = await oneShot(harness, root, path.join(folders, 'fresh'));
      const want = expected.get(sessionId!)!.events;
      await eventually(() => followed!.events().length >= want.length, 'the follower to receive every event');
      expect(plain(followed!.events())).toEqual(want);
    });
  }
});
