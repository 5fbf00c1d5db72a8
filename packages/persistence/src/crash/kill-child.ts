import { spawn } from 'node:child_process';

/**
 * Runs a TypeScript child script (through tsx) until it prints `ready`, SIGKILLs it `killAfterMs`
 * later, and resolves with everything it printed. A child that exits on its own fails the test.
 */
export function runUntilKilled(
  script: string,
  args: readonly string[],
  killAfterMs: number,
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
      if (timer === undefined && out.includes('ready\n'))
        timer = setTimeout(() => proc.kill('SIGKILL'), killAfterMs);
    });
    proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    proc.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`child exited on its own (code ${String(code)}): ${err}`));
      else resolve(out);
    });
  });
}
