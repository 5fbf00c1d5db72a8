import { persistenceWriter, type SessionPersistence } from '@strand/persistence';
import { Session, SessionId, newSessionHeader } from '@strand/session';
import { workloadTurns } from '@strand/workload';

export interface SmallSessionOptions {
  /** Each session first gets a `session/title` ("Session <i>"). */
  readonly titled?: boolean;
  /** Called with each session once written (the host benchmark puts its cache rows). */
  readonly written?: (session: Session) => void;
}

/**
 * Writes `count` small sessions `s-0` … (one 21-event workload turn each) with 8 writers at once:
 * the corpus the list benchmarks read. The same for every benchmark, so their figures compare.
 */
export async function writeSmallSessions(
  persistence: SessionPersistence,
  count = 10_000,
  options: SmallSessionOptions = {},
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) {
        const i = next++;
        const id = SessionId(`s-${i}`);
        const header = newSessionHeader({ id, createdAt: 1_700_000_000_000 + i });
        const { incarnation } = await persistence.create({ header });
        const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, id) });
        if (options.titled === true)
          await session.append({ type: 'session/title', data: { title: `Session ${i}` } });
        await session.append([...workloadTurns(i, 21)][0]!);
        options.written?.(session);
      }
    }),
  );
}
