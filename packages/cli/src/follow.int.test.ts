/**
 * `strand follow` (a real process of the bundled CLI) through a host that goes away mid-follow
 * while the session keeps appending: once the host is back it re-follows, pages the events it
 * missed, and prints every seq exactly once, in order — no "run follow again".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '@strand/host';
import { openStrandRuntime, type StrandRuntime } from '@strand/runtime';
import { liveSession } from './testing/live-session.js';
import { startStrand, type StrandProcess } from './testing/strand-process.js';

let root: string;
let runtime: StrandRuntime;
let host: RunningHost | undefined;
let follow: StrandProcess | undefined;
afterEach(async () => {
  follow?.kill('SIGKILL');
  await follow?.exited;
  await host?.close();
  await runtime.close();
  rmSync(root, { recursive: true, force: true });
});

/** The seqs of `follow --json`'s complete lines so far. */
function seqsOf(stdout: string): number[] {
  return stdout
    .split('\n')
    .slice(0, -1)
    .map((line) => (JSON.parse(line) as { seq: number }).seq);
}

describe('strand follow across a host restart', () => {
  it('prints the events appended while the host was gone, then live ones, each seq once and in order', async () => {
    root = mkdtempSync(path.join(tmpdir(), 'strand-follow-'));
    runtime = await openStrandRuntime({ dataDir: root, syncSearch: false });
    const id = 'ticking';
    const session = await liveSession(runtime, id, 30);
    host = await startHost({ services: runtime.services });
    const port = host.port;

    follow = startStrand(['follow', id, '--url', host.url, '--json']);
    await follow.until((out) => seqsOf(out).at(-1) === 29, 'follow printed its first window');
    await session.append({ type: 'x/tick', data: { i: 30 } });
    await follow.until((out) => seqsOf(out).at(-1) === 30, 'follow printed a live event');

    await host.close();
    host = undefined;
    // Appended while no host is there to deliver them: the re-follow must page them in.
    for (let i = 31; i < 50; i++) await session.append({ type: 'x/tick', data: { i } });
    host = await startHost({ services: runtime.services, port });
    await follow.until((out) => seqsOf(out).at(-1) === 49, 'follow printed the missed events');
    for (let i = 50; i < 53; i++) await session.append({ type: 'x/tick', data: { i } });
    await follow.until((out) => seqsOf(out).at(-1) === 52, 'follow printed live events after the restart');

    // The first window is the last 20 events; from there every seq once, in order.
    expect(seqsOf(follow.stdout)).toEqual(Array.from({ length: 43 }, (_, i) => 10 + i));
    expect(follow.stderr).toBe('');
    follow.kill('SIGINT');
    expect(await follow.exited).toBe(0);
    follow = undefined;
  }, 120_000);
});
