import { spawn } from 'node:child_process';

/**
 * Runs a TypeScript child script (through tsx) until it prints a line matching `armOn` (`ready`
 * unless told), SIGKILLs it `killAfterMs` later, and resolves with everything it printed. A child
 * that exits on its own fails the test. Arming on an event the child prints, not on a time after
 * its start, keeps a loaded machine from killing a child before it did what the test needs.
 */
export function runUntilKilled(
  script: string,
  args: readonly string[],
  killAfterMs: number,
  armOn: RegExp = /^ready$/m,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let timer: NodeJS.Timeout | undefined;
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (timer === undefined && armOn.test(out)) timer = setTimeout(() => proc.kill('SIGKILL'), killAfterMs);
    });
    proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    proc.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`child exited on its own (code ${String(code)}): ${err}`));
      else resolve(out);
    });
  });
}
