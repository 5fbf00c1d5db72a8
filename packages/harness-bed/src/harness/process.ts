import { spawn } from 'node:child_process';
import type { InstalledHarness } from '../install/install.js';

export interface HarnessRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly args: readonly string[];
  readonly cwd: string;
  /** The whole environment: nothing of the test's own is passed on (no real home, no keys). */
  readonly env: Readonly<Record<string, string>>;
  readonly stdin?: string | undefined;
  /** Sends SIGINT once this resolves (the interrupted-turn scenario waits on the endpoint's hold). */
  readonly interruptWhen?: Promise<unknown> | undefined;
  /** A hang guard, not a timing assertion: a harness that does not exit in this time is killed. */
  readonly killAfterMs?: number;
}

/** The variables every harness gets: a path to run tools, a locale, a plain terminal. */
export function baseEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    USER: 'bed',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    TMPDIR: process.env.TMPDIR ?? '/tmp',
    CI: '1',
  };
}

/** Runs a harness to its exit; a failed exit is returned, not thrown (scenarios check it). */
export function runHarness(installed: InstalledHarness, options: RunOptions): Promise<HarnessRun> {
  return new Promise((resolve, reject) => {
    // Its own process group: a signal goes to the harness and everything it started, as Ctrl-C
    // in a terminal does, and a hung harness's tool processes die with it.
    const child = spawn(installed.command, [...installed.args, ...options.args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const signal = (name: NodeJS.Signals): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, name);
      } catch {
        // The group is gone already.
      }
    };
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdin.on('error', () => undefined);
    if (options.stdin !== undefined) child.stdin.end(options.stdin);
    else child.stdin.end();
    const guard = setTimeout(() => signal('SIGKILL'), options.killAfterMs ?? 120_000);
    void options.interruptWhen?.then(() => signal('SIGINT'));
    child.on('error', (error) => {
      clearTimeout(guard);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
