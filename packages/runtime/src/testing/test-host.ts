import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startHost, type HostOptions, type RunningHost } from '@strand/host';
import { openStrandRuntime, type RuntimeOptions, type StrandRuntime } from '../strand-runtime.js';
import { RpcTestClient } from './host-fixture.js';

/**
 * A whole runtime (agents included) over a fresh temp data folder, a real host on a free port, and
 * the wire clients a test opened. Closing undoes it in reverse: clients, host, runtime, folder.
 *
 * It lives here, not in `@strand/stack/testing`, because it composes `openStrandRuntime` and
 * `startHost`: the stack sits below host and runtime, so its testing entry may import neither.
 */
export interface TestHost {
  /** The data folder. */
  readonly root: string;
  readonly runtime: StrandRuntime;
  readonly host: RunningHost;
  /** A raw JSON-RPC client on the host's `/rpc`, closed with the test host. */
  connect(): Promise<RpcTestClient>;
  close(): Promise<void>;
}

export interface TestHostOptions {
  /** Prefix of the temp folder's name (which test made it). */
  readonly prefix?: string;
  readonly runtime?: Omit<RuntimeOptions, 'dataDir'>;
  /** Host options beside the runtime's services (limits, pacing, token…). */
  readonly host?: Partial<Omit<HostOptions, 'services'>>;
}

export async function startTestHost(options: TestHostOptions = {}): Promise<TestHost> {
  const root = mkdtempSync(path.join(tmpdir(), `${options.prefix ?? 'strand-test-host'}-`));
  const undo: (() => Promise<void> | void)[] = [() => rmSync(root, { recursive: true, force: true })];
  const close = async (): Promise<void> => {
    for (const step of undo.splice(0).reverse()) await step();
  };
  try {
    const runtime = await openStrandRuntime({ ...options.runtime, dataDir: root });
    undo.push(() => runtime.close());
    const host = await startHost({ ...options.host, services: runtime.services });
    undo.push(() => host.close());
    return {
      root,
      runtime,
      host,
      async connect() {
        const client = await RpcTestClient.open(host.rpcUrl);
        undo.push(() => client.close());
        return client;
      },
      close,
    };
  } catch (error) {
    // A start that failed half-way leaves nothing open behind it.
    await close();
    throw error;
  }
}
