import { Command } from 'commander';
import { ProjectionStore, SessionFollower, type ShownGeneration } from '@strand/client';
import type { WireEvent } from '@strand/protocol';
import { eventLines, projectionChangeLine, type SnapshotText } from '../output/session-text.js';
import { styleFor } from '../output/style.js';
import { problemLine } from '../problem-line.js';
import { withConnection } from '../remote.js';
import { common, type Common } from './common-options.js';
import { followStep } from './follow-step.js';
import { printSnapshot, terminalWidth } from './read-commands.js';

/** Events in the first window printed (`show`'s default). */
const FOLLOW_WINDOW = 20;
/**
 * A hole this large or smaller between what was printed and a new generation (a reconnect, a
 * resync) is paged in, so every event is printed once; a larger one is skipped and said so.
 */
const MAX_GAP_FILL = 100_000;

/**
 * `strand follow <id>`: the session's snapshot, then each event and projection change as it
 * arrives, through the client's `SessionFollower` — the web UI's follow, with its reconnects,
 * resyncs and gap repair — so a host restart or a resync goes on printing where it stopped.
 */
export function followCommand(): Command {
  return common(
    new Command('follow').description(
      'print a session, then its live events as they are appended (Ctrl-C to stop)',
    ),
  )
    .argument('<id>', 'session id')
    .action(async (id: string, options: Common) => {
      await withConnection(options, async (connection) => {
        // Ctrl-C ends the follow cleanly (unfollow, close, exit 0); a second one while closing
        // does not wait for that.
        const stopped = new Promise<void>((resolve) => {
          const stop = (): void => {
            resolve();
            process.once('SIGINT', () => process.exit(130));
          };
          process.once('SIGINT', stop);
          process.once('SIGTERM', stop);
        });
        const json = options.json === true;
        const style = styleFor(process.stdout);
        const store = new ProjectionStore();
        const follower = new SessionFollower({
          connection,
          store,
          window: FOLLOW_WINDOW,
          maxGapFill: MAX_GAP_FILL,
        });
        let next: number | undefined;
        let reported: unknown;
        const printEvents = (events: readonly WireEvent[]): void => {
          if (json) for (const e of events) console.log(JSON.stringify(e));
          else for (const line of eventLines(events, style, terminalWidth())) console.log(line);
        };
        const printed = follower.subscribe((view) => {
          if (view.phase === 'failed' && view.error !== reported) {
            reported = view.error;
            console.error(problemLine('follow failed (retried on the next reconnect)', view.error));
          }
          const step = followStep(next, view.shown);
          if (step.kind === 'nothing') return;
          next = step.next;
          if (step.kind === 'snapshot') {
            if (json) printEvents(view.shown!.events);
            else printSnapshot(snapshotOf(view.shown!, store, id));
            return;
          }
          if (step.skipped !== undefined)
            console.error(
              `strand: events ${step.skipped.from}–${step.skipped.to} were skipped (more than ${MAX_GAP_FILL} missed); strand show pages them`,
            );
          printEvents(step.events);
        });
        // Projection changes after the snapshot (the snapshot's own baseline is printed with it).
        const changes = store.subscribe(id, (change) => {
          if (next === undefined || json) return;
          for (const key of change.keys) {
            const row = store.get(id, key);
            if (row.known) console.log(projectionChangeLine(key, row.value, style));
          }
        });
        try {
          await follower.follow(id);
          await stopped;
          await follower.unfollow();
        } finally {
          printed();
          changes();
        }
      });
    });
}

/** The first generation with the projection values its baseline put in the store. */
function snapshotOf(shown: ShownGeneration, store: ProjectionStore, id: string): SnapshotText {
  const values = Object.fromEntries([...store.rows(id)].map(([key, row]) => [key, row.value]));
  return { ...shown, baseline: { values } };
}
