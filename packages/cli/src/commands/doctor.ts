import { Command, Option } from 'commander';
import cliProgress from 'cli-progress';
import { isPersistenceError, type SessionPersistence } from '@strand/persistence';
import type { ProjectionRegistry } from '@strand/projection';
import { openStores, resolveRuntimeOptions, strandRegistry, type RuntimeStores } from '@strand/runtime';
import { SessionLogOffset, defined } from '@strand/session';
import { findDataFolderHolder, type FolderHolder } from '../data-lock/folder-holder.js';
import { holdDataFolder, type DoctorWrite } from '../data-lock/hold-for-command.js';
import { DEFAULT_DATA_DIR } from '../defaults.js';
import { resolveHoldingHost } from '../holding-host.js';
import { withHost } from '../remote.js';
import { storeOption } from '../store-option.js';
import { rebuildList } from './rebuild-list.js';

interface DoctorOptions {
  data: string;
  backend?: 'jsonl' | 'sqlite';
  store?: string;
  repair?: boolean;
  rebuildIndex?: boolean;
  rebuildCache?: boolean;
  rebuildList?: boolean;
  json?: boolean;
}

export interface DoctorFinding {
  readonly sessionId: string;
  /** `running-turn`: an open turn the host holding the folder is running — not a crash, never repaired. */
  readonly problem: 'corrupt' | 'unsupported' | 'torn-tail' | 'open-turn' | 'running-turn' | 'unreadable';
  readonly detail: string;
  readonly location?: unknown;
  readonly repaired?: boolean;
}

/**
 * `strand doctor`: verifies every stored log (exact reads), reports corrupt sessions with their
 * locations, repairs torn tails and crashed turns on request (a repairing load — closers are
 * appended, nothing is truncated but a torn tail), and rebuilds the derived search index and
 * projection cache. Exit code 1 when a problem remains.
 */
export function doctorCommand(): Command {
  return new Command('doctor')
    .description(
      'verify every session log; optionally repair torn tails and rebuild the search index and projection cache',
    )
    .option('--data <dir>', 'data folder', DEFAULT_DATA_DIR)
    .addOption(
      new Option('--backend <backend>', 'files store format (default jsonl)').choices(['jsonl', 'sqlite']),
    )
    .addOption(storeOption())
    .option('--repair', 'truncate torn tails and close crashed turns (repairing load)')
    .option('--rebuild-index', 'rebuild the search index and the list index from the logs')
    .option('--rebuild-list', 'rebuild the list index (session.list) from the logs')
    .option('--rebuild-cache', 'rebuild the projection cache from the logs')
    .option('--json', 'print one JSON object')
    .action(async (options: DoctorOptions) => {
      const writes: DoctorWrite[] = [
        ...(options.repair === true ? (['repair'] as const) : []),
        ...(options.rebuildIndex === true ? (['rebuild-index'] as const) : []),
        ...(options.rebuildCache === true ? (['rebuild-cache'] as const) : []),
        ...(options.rebuildList === true ? (['rebuild-list'] as const) : []),
      ];
      // Writing beside a live host would race it (a repair would close the turns it runs and
      // wedge those sessions); each refusal says why for what was asked.
      const lock = writes.length > 0 ? await holdDataFolder(options.data, 'doctor', writes) : undefined;
      try {
        await doctor(
          options,
          lock === undefined ? await findDataFolderHolder(options.data) : { kind: 'free' },
          lock !== undefined,
        );
      } finally {
        await lock?.release();
      }
    });
}

async function doctor(options: DoctorOptions, holder: FolderHolder, holdsLock: boolean): Promise<void> {
  // The stores the host would serve: the data folder's files (JSONL or SQLite) or PostgreSQL.
  // A read-only doctor may run beside a writer: its temp files are in flight, not leftovers.
  const registry = strandRegistry();
  const stores = await openStores(
    resolveRuntimeOptions({
      dataDir: options.data,
      ...defined({ backend: options.backend, store: options.store }),
      sweepTemp: holdsLock,
    }),
    registry,
  );
  const persistence = stores.persistence;
  const running = new RunningTurns(options.data, holder);
  const showBar = options.json !== true && process.stderr.isTTY;
  try {
    const sessions = await persistence.list();
    const bar = showBar
      ? new cliProgress.SingleBar(
          { format: 'verify [{bar}] {value}/{total} sessions', stream: process.stderr },
          cliProgress.Presets.shades_classic,
        )
      : undefined;
    bar?.start(sessions.length, 0);
    await running.ask();
    let findings: DoctorFinding[] = [];
    for (const [i, summary] of sessions.entries()) {
      findings.push(...(await check(persistence, summary.header.id, options.repair === true)));
      bar?.update(i + 1);
    }
    bar?.stop();
    // Asked again after the pass: a turn that started during it is open in the log too.
    await running.ask();
    findings = findings.map((f) => running.classify(f));
    let indexed: number | undefined;
    if (options.rebuildIndex === true) {
      indexed = (await stores.search.rebuild({ persistence })).eventsIndexed;
    }
    let cached: number | undefined;
    if (options.rebuildCache === true) cached = await rebuildCache(stores, registry);
    // `--rebuild-index` rebuilds both indexes: the search index and the list index.
    const listed =
      options.rebuildList === true || options.rebuildIndex === true
        ? await rebuildList(stores, registry)
        : undefined;
    const remaining = findings.filter((f) => f.repaired !== true);
    if (options.json === true) {
      console.log(
        JSON.stringify({
          sessions: sessions.length,
          findings,
          ...defined({ eventsIndexed: indexed, cacheRows: cached, listRows: listed }),
        }),
      );
    } else {
      console.log(
        `${sessions.length} sessions checked; ${findings.length} finding(s)${remaining.length < findings.length ? `, ${findings.length - remaining.length} repaired` : ''}.`,
      );
      for (const f of findings)
        console.log(
          `  ${f.sessionId}: ${f.problem}${f.repaired === true ? ' (repaired)' : ''} — ${f.detail}${f.location === undefined ? '' : ` at ${JSON.stringify(f.location)}`}`,
        );
      if (indexed !== undefined) console.log(`Search index rebuilt: ${indexed} events.`);
      if (cached !== undefined) console.log(`Projection cache rebuilt: ${cached} sessions.`);
      if (listed !== undefined) console.log(`List index rebuilt: ${listed} sessions.`);
    }
    if (
      remaining.some(
        (f) => f.problem === 'corrupt' || f.problem === 'unsupported' || f.problem === 'unreadable',
      )
    )
      process.exitCode = 1;
  } finally {
    // Writes what the cache queued (PostgreSQL writes behind) and closes every store.
    await stores.close();
  }
}

/**
 * The sessions a holding host runs a turn in (or has attached), asked through that host: in its
 * folder an open turn is either one of those, running, or one a crash left.
 */
class RunningTurns {
  readonly #ids = new Set<string>();
  #hostUrl: string | undefined;
  constructor(
    readonly dataDir: string,
    readonly holder: FolderHolder,
  ) {}

  async ask(): Promise<void> {
    if (this.holder.kind !== 'host') return;
    try {
      const host = await resolveHoldingHost(this.dataDir, undefined);
      if (host === undefined) return;
      this.#hostUrl = host.url;
      const { sessions } = await withHost(host.rpcUrl, host.token, (c) => c.call('session.list', {}));
      for (const row of sessions) if (row.busy || row.live) this.#ids.add(row.id);
    } catch (error) {
      console.error(
        `strand: could not ask the host holding ${this.dataDir} which turns it runs (${error instanceof Error ? error.message : String(error)}); an open turn may be running`,
      );
    }
  }

  classify(finding: DoctorFinding): DoctorFinding {
    if (finding.problem !== 'open-turn' || !this.#ids.has(finding.sessionId)) return finding;
    return {
      sessionId: finding.sessionId,
      problem: 'running-turn',
      detail: `a turn the host at ${this.#hostUrl ?? 'this folder'} is running (not a crash)`,
    };
  }
}

async function check(
  persistence: SessionPersistence,
  id: Parameters<SessionPersistence['inspect']>[0],
  repair: boolean,
): Promise<DoctorFinding[]> {
  try {
    const log = await persistence.inspect(id);
    const findings: DoctorFinding[] = [];
    if (log.tornTail)
      findings.push({
        sessionId: id,
        problem: 'torn-tail',
        detail: 'a torn final frame (an interrupted write) is ignored by reads',
      });
    if (log.repairs.length > 0)
      findings.push({
        sessionId: id,
        problem: 'open-turn',
        detail: `a turn left open by a crash needs ${log.repairs.length} closing event(s)`,
      });
    if (repair && findings.length > 0) {
      await persistence.load(id);
      return findings.map((f) => ({ ...f, repaired: true }));
    }
    return findings;
  } catch (error) {
    if (isPersistenceError(error, 'PERSISTENCE_CORRUPT'))
      return [{ sessionId: id, problem: 'corrupt', detail: error.message, location: error.location }];
    if (isPersistenceError(error, 'PERSISTENCE_FORMAT_UNSUPPORTED'))
      return [{ sessionId: id, problem: 'unsupported', detail: error.message }];
    return [
      {
        sessionId: id,
        problem: 'unreadable',
        detail: error instanceof Error ? error.message : String(error),
      },
    ];
  }
}

async function rebuildCache(stores: RuntimeStores, registry: ProjectionRegistry): Promise<number> {
  const { persistence, cache } = stores;
  let written = 0;
  for (const summary of await persistence.list()) {
    try {
      const log = await persistence.inspect(summary.header.id);
      cache.put(
        summary,
        SessionLogOffset(log.inheritedEventCount),
        registry.foldAll(log.header, log.events, log.inheritedEventCount).rows,
      );
      written++;
    } catch {
      // A corrupt log has no rows to rebuild; verification reports it.
    }
  }
  return written;
}
