import { persistenceWriter, type SessionPersistence } from '@strand/persistence';
import {
  Session,
  SessionId,
  newSessionHeader,
  planFork,
  type SessionEventInput,
  type SessionHeader,
} from '@strand/session';
import { descriptorEvent } from '@strand/subagent';
import { WORKLOAD_START_TIME, workloadTurns } from '@strand/workload';
import { humanizeTurn } from './demo-text.js';

export const DEMO_LIVE_SESSION = SessionId('demo-live');
/** The long session (≥ 50k events) whose first paint the web UI is measured by. */
export const DEMO_LONG_SESSION = SessionId('demo-long');

export interface DemoCorpusReport {
  readonly sessions: number;
  readonly events: number;
}

const DAY = 24 * 60 * 60 * 1000;

/**
 * A session's own events dated from its header's creation on: the workload's clock starts at
 * `WORKLOAD_START_TIME` whatever the header says, and an undated event would take the wall clock,
 * so a session would read "created 26 d ago" but "last prompt 11 mo ago". Offsets are kept, so
 * the order and spacing of the workload's turns stay as generated; an undated event (a title, a
 * descriptor) is dated at the creation itself.
 */
export function datedAfter(
  createdAt: number,
  inputs: SessionEventInput | SessionEventInput[],
): SessionEventInput[] {
  return (Array.isArray(inputs) ? inputs : [inputs]).map((input) => ({
    ...input,
    time: createdAt + Math.max(0, (input.time ?? WORKLOAD_START_TIME) - WORKLOAD_START_TIME),
  }));
}

/**
 * Writes the demo corpus: titled parent sessions, a subagent tree three levels deep with
 * one-shot and continuable children and a forked child, one deliberately corrupt child, one long
 * session (≥ 50k events), and the session `demo-live` that `strand serve` keeps producing events in.
 * Deterministic (workload-shaped turns with readable demo text, `demo-text.ts`), written through
 * persistence like any session. `demo-1`'s first reply has a list and a fenced code block.
 */
export async function writeDemoCorpus(
  persistence: SessionPersistence,
  onProgress: (done: number, total: number) => void = () => undefined,
): Promise<DemoCorpusReport> {
  let sessions = 0;
  let events = 0;
  const base = Date.UTC(2026, 10, 1);
  const write = async (
    header: SessionHeader,
    inputs: Iterable<SessionEventInput | SessionEventInput[]>,
    inherited?: Session,
  ): Promise<Session> => {
    const prefix =
      inherited === undefined
        ? undefined
        : planFork(inherited.id, inherited.events, inherited.events.length, header);
    const finalHeader = prefix?.header ?? header;
    const { incarnation } = await persistence.create({
      header: finalHeader,
      ...(prefix === undefined ? {} : { inheritedEvents: prefix.events }),
    });
    const session = new Session({
      header: finalHeader,
      incarnation,
      writer: persistenceWriter(persistence, finalHeader.id),
      ...(prefix === undefined
        ? {}
        : { events: prefix.events, inheritedEventCount: prefix.inheritedEventCount }),
    });
    for (const batch of inputs) await session.append(datedAfter(finalHeader.createdAt, batch));
    sessions++;
    events += session.events.length;
    return session;
  };
  // Workload-shaped turns with readable text (the generator itself stays the benchmarks').
  const turns = function* (seed: number, count: number): Generator<SessionEventInput[]> {
    let index = seed;
    for (const turn of workloadTurns(seed, count * 21)) yield humanizeTurn(turn, index++);
  };
  const titled = (title: string, seed: number, count: number): SessionEventInput[][] => [
    [{ type: 'session/title', data: { title } }],
    ...turns(seed, count),
  ];
  const child = (id: string, parent: SessionId, depth: number, at: number): SessionHeader =>
    newSessionHeader({
      id: SessionId(id),
      parentSession: parent,
      origin: 'subagent',
      delegationDepth: depth,
      createdAt: at,
      cwd: '/home/demo/strand',
    });
  const total = 13;

  const titles = [
    'Refactor the persistence layer',
    'Why does the follow reconnect flicker?',
    'Write the importer for Codex rollouts',
    'Benchmark cold inspect on 100k events',
  ];
  const parents: Session[] = [];
  for (const [i, title] of titles.entries()) {
    const header = newSessionHeader({
      id: SessionId(`demo-${i + 1}`),
      cwd: '/home/demo/strand',
      createdAt: base + i * DAY,
      agentPreset: 'general',
    });
    parents.push(
      await write(header, [
        [{ type: 'model/selection', data: { provider: 'strand', model: 'scripted' } }],
        ...titled(title, i, 2 + i),
      ]),
    );
    onProgress(sessions, total);
  }

  // A subagent tree three levels deep under demo-1.
  const root = parents[0]!;
  const research = await write(child('demo-1-researcher', root.id, 1, base + 3600_000), [
    [descriptorEvent({ version: 2, mode: 'continuable', label: 'researcher' })],
    ...turns(20, 3),
  ]);
  const summarizer = await write(child('demo-1-summarizer', research.id, 2, base + 3700_000), [
    [descriptorEvent({ version: 2, mode: 'one-shot', label: 'summarizer' })],
    ...turns(21, 1),
  ]);
  await write(child('demo-1-fact-checker', summarizer.id, 3, base + 3800_000), [
    [descriptorEvent({ version: 2, mode: 'one-shot', label: 'fact-checker' })],
    ...turns(22, 1),
  ]);
  await write(child('demo-1-tester', root.id, 1, base + 3900_000), [
    [descriptorEvent({ version: 2, mode: 'one-shot' })],
    ...turns(23, 2),
  ]);
  // A forked child: seeded with the parent's completed turns, its descriptor the first own event.
  await write(
    child('demo-1-fork', root.id, 1, base + 4000_000),
    [[descriptorEvent({ version: 2, mode: 'continuable', label: 'forked-reviewer' })], ...turns(24, 1)],
    root,
  );
  // A deliberately corrupt child: its descriptor is malformed, so the listing shows a diagnostic.
  await write(child('demo-1-broken', root.id, 1, base + 4100_000), [
    [{ type: 'subagent/descriptor', data: { version: 2, mode: 'continuable' } }],
    ...turns(25, 1),
  ]);
  onProgress(sessions, total);

  // One long session.
  const long = newSessionHeader({
    id: DEMO_LONG_SESSION,
    cwd: '/home/demo/strand',
    createdAt: base + 5 * DAY,
  });
  const longTurns = function* (): Generator<SessionEventInput[]> {
    yield [{ type: 'session/title', data: { title: 'A very long session (50k+ events)' } }];
    let batch: SessionEventInput[] = [];
    for (const turn of turns(30, Math.ceil(50_001 / 21))) {
      batch.push(...turn);
      if (batch.length >= 2100) {
        yield batch;
        batch = [];
        onProgress(sessions, total);
      }
    }
    if (batch.length > 0) yield batch;
  };
  await write(long, longTurns());

  // The session `strand serve` keeps live.
  await write(
    newSessionHeader({
      id: DEMO_LIVE_SESSION,
      cwd: '/home/demo/strand',
      createdAt: base + 6 * DAY,
      agentPreset: 'general',
    }),
    titled('Live: a session that keeps working', 40, 1),
  );
  onProgress(sessions, total);
  return { sessions, events };
}
