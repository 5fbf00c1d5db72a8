import { mkdirSync, openSync, readSync, closeSync, statSync } from 'node:fs';
import path from 'node:path';
import { bedHarness, dialogue, DRIVERS, openWorkspace, runScenario } from '@strand/harness-bed';
import { startHost } from '@strand/host';
import { startLiveIngest } from '@strand/import';
import type { FollowSnapshot, SessionListRow, WireEvent } from '@strand/protocol';
import { openStrandRuntime } from '@strand/runtime';
import { RpcTestClient } from '@strand/runtime/testing';

/**
 * Live ingest of the real Claude Code: a host watching the bed workspace's transcript folder, a
 * follower on the session, and `prompts` prompts (the first creates the session; each later one
 * is `claude -p --resume`, measured). Per prompt: from the moment its line is in the file — a
 * poll of the file every 2 ms beside the harness, so the figure is at most 2 ms short — until the
 * follower holds the `user/message`.
 */
export async function realHarnessLatencies(
  dataDir: string,
  prompts: number,
): Promise<{ kind: 'measured'; version: string; latencies: number[] } | { kind: 'skipped'; reason: string }> {
  const bed = bedHarness('claude-code');
  if (bed.kind === 'missing') return { kind: 'skipped', reason: bed.reason };
  const workspace = await openWorkspace('claude-code-bench');
  const root = DRIVERS['claude-code'].transcriptRoot(workspace);
  mkdirSync(root, { recursive: true });
  const runtime = await openStrandRuntime({ dataDir });
  const ingest = startLiveIngest({
    watches: [{ harness: 'claude-code', dir: root }],
    target: runtime.services,
    dataDir,
  });
  await ingest.ready;
  const host = await startHost({ services: runtime.services, port: 0 });
  const client = await RpcTestClient.open(host.rpcUrl);
  const texts = Array.from({ length: prompts }, (_, i) => `Prompt number ${i + 1}, please answer briefly.`);
  const latencies: number[] = [];
  try {
    let followId: string | undefined;
    let file: string | undefined;
    await runScenario(
      bed.installed,
      {
        name: 'multi-turn',
        prompts: { main: texts.map((text) => ({ text })) },
        script: () => dialogue({ threads: { main: texts.map((_, i) => ({ text: `Answer ${i + 1}.` })) } }),
        async steps(run) {
          const first = await run.prompt({ text: texts[0]! });
          for (const text of texts.slice(1)) {
            const arrived = client.waitFor(
              (m) =>
                m.method === 'follow.events' &&
                (m.params as { followId: string }).followId === followId &&
                (m.params as { events: WireEvent[] }).events.some(
                  (e) => e.type === 'user/message' && (e.data as { content?: unknown }).content === text,
                ),
              60_000,
            );
            const written = appearsIn(file!, text);
            await run.prompt({ text, resume: first.sessionId! });
            const [at, got] = await Promise.all([written, arrived.then(() => performance.now())]);
            latencies.push(got - at);
          }
        },
      },
      {
        workspace,
        async afterPrompt(run) {
          if (followId !== undefined) return;
          // The first prompt made the session: follow it, and find its file.
          let row: SessionListRow | undefined;
          while (row === undefined) {
            const { sessions } = await client.call<{ sessions: SessionListRow[] }>('session.list');
            row = sessions.find((r) => r.header.source?.sourceId === run.sessionId);
            if (row === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
          }
          followId = (await client.call<FollowSnapshot>('session.follow', { id: row.id })).followId;
          const slug = workspace.cwd.replace(/[^a-zA-Z0-9]/g, '-');
          file = path.join(root, slug, `${run.sessionId}.jsonl`);
        },
      },
    );
  } finally {
    client.close();
    await ingest.close();
    await host.close();
    await runtime.close();
    await workspace.remove();
  }
  return { kind: 'measured', version: bed.installed.pin.version, latencies };
}

/** Resolves with `performance.now()` at the first 2 ms poll that finds `text` in the file's new bytes. */
function appearsIn(file: string, text: string): Promise<number> {
  const start = statSync(file).size;
  const needle = JSON.stringify(text);
  return new Promise((resolve) => {
    const poll = (): void => {
      const size = statSync(file).size;
      if (size > start) {
        const buffer = Buffer.alloc(size - start);
        const fd = openSync(file, 'r');
        try {
          readSync(fd, buffer, 0, buffer.length, start);
        } finally {
          closeSync(fd);
        }
        if (buffer.toString('utf8').includes(needle)) return resolve(performance.now());
      }
      setTimeout(poll, 2);
    };
    poll();
  });
}
