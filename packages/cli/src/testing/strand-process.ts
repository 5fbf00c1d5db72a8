/**
 * The real `strand` command in child processes, as a person runs it: `bin/strand.js`, which runs
 * the bundle in its own process (so a child's pid is the command's pid). The bundle is built from
 * the sources under test by vitest's global setup (`bundle.global-setup.ts`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The installed command's entry point. */
export const STRAND_BIN = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'bin',
  'strand.js',
);
const LIMIT_MS = 120_000;

export interface StrandRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The last stdout line as JSON (`--json` prints one object). */
  json(): unknown;
}

function run(code: number | null, stdout: string, stderr: string): StrandRun {
  return { code, stdout, stderr, json: () => JSON.parse(stdout.trim().split('\n').at(-1)!) as unknown };
}

/**
 * The command line of `strand <args>` for a spawner that is not ours (the MCP SDK's
 * `StdioClientTransport`): the installed bin, as a harness runs it.
 */
export function strandCommandLine(args: readonly string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [STRAND_BIN, ...args] };
}

/** Runs a command to its end, blocking (for commands nothing else in the test waits on). */
export function strand(...args: string[]): StrandRun {
  const child = spawnSync(process.execPath, [STRAND_BIN, ...args], {
    encoding: 'utf8',
    timeout: LIMIT_MS,
  });
  return run(child.status, child.stdout, child.stderr);
}

/** Runs a command to its end without blocking this process (hosts it talks to live here too). */
export function strandAsync(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<StrandRun> {
  return new Promise((resolve, reject) => {
    const child = startStrand(args, env);
    child.exited.then((code) => resolve(run(code, child.stdout, child.stderr)), reject);
  });
}

/** A long-running command (`serve`, `follow`): its output so far, waits on it, and signals. */
export interface StrandProcess {
  readonly pid: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  /** Resolves once `ready(stdout)` holds; rejects if the process exits first. */
  until(ready: (stdout: string) => boolean, what: string): Promise<string>;
  kill(signal: NodeJS.Signals): void;
}

export function startStrand(args: readonly string[], env: NodeJS.ProcessEnv = {}): StrandProcess {
  const child: ChildProcess = spawn(process.execPath, [STRAND_BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  const killer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      clearTimeout(killer);
      resolve(code);
      for (const wake of waiters) wake();
    });
  });
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const wake of waiters) wake();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let done = false;
  void exited.then(() => (done = true));
  return {
    pid: child.pid!,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    exited,
    until(ready, what) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (ready(stdout)) {
            waiters.delete(check);
            resolve(stdout);
          } else if (done || child.exitCode !== null || child.signalCode !== null) {
            waiters.delete(check);
            reject(new Error(`strand exited before ${what}; stdout: ${stdout}; stderr: ${stderr}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
    kill(signal) {
      child.kill(signal);
    },
  };
}

/** Starts `strand serve --json` on a free port and resolves once it prints its URLs. */
export async function startServe(
  data: string,
  extra: readonly string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<{ process: StrandProcess; url: string; rpcUrl: string }> {
  const proc = startStrand(['serve', '--data', data, '--port', '0', '--json', ...extra], env);
  const out = await proc.until((s) => s.includes('\n'), 'serve printed its URLs');
  const { url, rpcUrl } = JSON.parse(out.split('\n')[0]!) as { url: string; rpcUrl: string };
  return { process: proc, url, rpcUrl };
}
