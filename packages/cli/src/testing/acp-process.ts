/**
 * The real `strand acp` in a child process, driven over its stdio by the ACP SDK's own client
 * side (`client()` + `ndJsonStream`), as an editor runs it. Every raw stdout line is kept, so a
 * test can check that nothing but protocol frames reached stdout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import {
  client,
  ndJsonStream,
  type ClientConnection,
  type SessionNotification,
} from '@agentclientprotocol/sdk';
import { strandCommandLine } from './strand-process.js';

export interface AcpProcess {
  readonly connection: ClientConnection;
  /** Every `session/update` received, in arrival order. */
  readonly updates: SessionNotification[];
  /** Permission requests the agent made (Strand's tools need none: tests expect zero). */
  readonly permissionRequests: unknown[];
  readonly stdoutLines: () => string[];
  readonly stderr: () => string;
  /** Resolves once an update satisfying `ready` has arrived. */
  until(ready: (updates: readonly SessionNotification[]) => boolean, what: string): Promise<void>;
  /** Closes stdin (how an editor ends its agent) and resolves with the exit code. */
  end(): Promise<number | null>;
}

export function startAcp(args: readonly string[], env: NodeJS.ProcessEnv = {}): AcpProcess {
  const line = strandCommandLine(['acp', ...args]);
  const child: ChildProcess = spawn(line.command, line.args, {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const raw = Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>;
  const [forSdk, forCheck] = raw.tee();
  void (async () => {
    const decoder = new TextDecoder();
    const reader = forCheck.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      stdout += decoder.decode(value, { stream: true });
    }
  })();
  const updates: SessionNotification[] = [];
  const permissionRequests: unknown[] = [];
  const waiters = new Set<() => void>();
  const app = client({ name: 'strand-acp-test' })
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
      for (const wake of waiters) wake();
    })
    .onRequest('session/request_permission', ({ params }) => {
      permissionRequests.push(params);
      return { outcome: { outcome: 'cancelled' } };
    });
  const connection = app.connect(
    ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, forSdk),
  );
  return {
    connection,
    updates,
    permissionRequests,
    stdoutLines: () => stdout.split('\n').filter((l) => l !== ''),
    stderr: () => stderr,
    until(ready, what) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (ready(updates)) {
            waiters.delete(check);
            resolve();
          } else if (child.exitCode !== null) {
            waiters.delete(check);
            reject(new Error(`strand acp exited before ${what}; stderr: ${stderr}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
    async end() {
      if (!child.stdin!.writableEnded) child.stdin!.end();
      const code = await exited;
      connection.close();
      return code;
    },
  };
}
