import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./host.child.ts', import.meta.url));

/** One incarnation of the soak's host process. */
export interface HostProcess {
  readonly rpcUrl: string;
  /** The process id (part of its lease owner's name on PostgreSQL). */
  readonly pid: number;
  /** The faults that struck in this incarnation so far. */
  readonly faults: readonly { readonly kind: string; readonly at: number }[];
  /** Resolves once the first fault of this incarnation struck. */
  readonly firstFault: Promise<void>;
  /** Set when the process ended on its own (a crash): how, and the start of its stderr. */
  readonly crashed: () => string | undefined;
  /** SIGKILL: no close, no lock release, whatever was in flight is cut. */
  kill(): Promise<void>;
  /** SIGTERM: the host closes in order and releases the folder. */
  stop(): Promise<void>;
}

/** The PostgreSQL store a host child runs on, instead of the data folder's files. */
export interface HostDatabase {
  readonly url: string;
  readonly leaseTtlMs: number;
}

/**
 * Starts the host child on `port` over `dataDir` (and `database`, when given) with `schedule`'s
 * faults (`formatSchedule`, or `formatPgSchedule` on a database); resolves once it serves.
 * `onError` hears what the host logged as an error.
 */
export async function startHostProcess(
  dataDir: string,
  port: number,
  schedule: string,
  database?: HostDatabase,
  onError: (line: string) => void = () => undefined,
): Promise<HostProcess> {
  const databaseArgs = database === undefined ? [] : [database.url, String(database.leaseTtlMs)];
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', CHILD, dataDir, String(port), schedule, ...databaseArgs],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    // Kept for the failure message only; the host logs nothing to stderr unless something is wrong,
    // and then the first lines say what (an uncaught error's message and stack, before its dump).
    if (stderr.length < 4000) stderr = (stderr + chunk.toString()).slice(0, 4000);
  });
  const faults: { kind: string; at: number }[] = [];
  let struck: () => void = () => undefined;
  const firstFault = new Promise<void>((resolve) => (struck = resolve));
  let ending = false;
  let crash: string | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      if (!ending) crash = `the host exited by itself (${code ?? signal}): ${stderr.trim()}`;
      resolve();
    }),
  );
  const rpcUrl = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const message = JSON.parse(line) as { rpcUrl?: string; fault?: string; at?: number; error?: string };
      if (message.error !== undefined) onError(message.error);
      if (message.rpcUrl !== undefined) resolve(message.rpcUrl);
      if (message.fault !== undefined) {
        faults.push({ kind: message.fault, at: message.at! });
        struck();
      }
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`the soak host exited before serving (${code ?? signal}): ${stderr}`)),
    );
  });
  const end = async (signal: NodeJS.Signals): Promise<void> => {
    ending = true;
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    rpcUrl,
    pid: child.pid!,
    faults,
    firstFault,
    crashed: () => crash,
    kill: () => end('SIGKILL'),
    stop: () => end('SIGTERM'),
  };
}
