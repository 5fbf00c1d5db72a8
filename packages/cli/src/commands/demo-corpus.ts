import { openJsonlPersistence, persistenceWriter } from '@strand/persistence';
import { Session, SessionId, newSessionHeader, planFork } from '@strand/session';
import { workloadTurns } from '@strand/test-support';

/**
 * Writes a small demo corpus (if the folder does not have one yet) and prints a summary: every
 * session listed from headers only, then one exact read of each.
 */
export async function runDemo(options: { dataDir: string }): Promise<void> {
  const persistence = await openJsonlPersistence({ root: options.dataDir });
  try {
    const existing = await persistence.list();
    if (existing.length === 0) {
      console.log(`Writing a demo corpus to ${persistence.root} …`);
      for (let i = 0; i < 4; i++) {
        const id = SessionId(`demo-${i + 1}`);
        const header = newSessionHeader({ id, cwd: '/home/demo/project', createdAt: Date.UTC(2026, 10, 1 + i) });
        const { incarnation } = await persistence.create({ header });
        const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, id) });
        await session.append({ type: 'session/title', data: { title: `Demo session ${i + 1}` } });
        let turns = 0;
        for (const turn of workloadTurns(i, 21 * (2 + i * 3))) {
          await session.append(turn);
          turns++;
        }
        if (i === 0) {
          // A forked child seeded with the parent's completed turns.
          const plan = planFork(id, session.events, session.events.length, { id: SessionId('demo-1-fork'), cwd: '/home/demo/project' });
          const fork = await persistence.create({ header: plan.header, inheritedEvents: plan.events });
          const child = new Session({ ...plan, incarnation: fork.incarnation, writer: persistenceWriter(persistence, plan.header.id) });
          await child.append({ type: 'session/title', data: { title: 'Fork of demo session 1' } });
        }
        console.log(`  wrote ${id}: ${turns} turns, ${session.events.length} events`);
      }
    }
    const sessions = await persistence.list();
    sessions.sort((a, b) => a.header.createdAt - b.header.createdAt || (a.header.id < b.header.id ? -1 : 1));
    console.log(`\n${sessions.length} sessions in ${persistence.root}`);
    for (const summary of sessions) {
      const log = await persistence.inspect(summary.header.id);
      const title = [...log.events].reverse().find((e) => e.type === 'session/title');
      console.log(
        `  ${summary.header.id.padEnd(14)} ${String(log.events.length).padStart(6)} events  ${(summary.storedBytes / 1024).toFixed(1).padStart(8)} KiB` +
          `${log.header.isSeeded ? `  seeded (${log.inheritedEventCount} inherited)` : ''}  ${title === undefined ? '' : JSON.stringify((title.data as { title: string }).title)}`,
      );
    }
  } finally {
    await persistence.close();
  }
}
