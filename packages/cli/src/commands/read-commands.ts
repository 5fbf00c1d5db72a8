import { Command } from 'commander';
import { integerOption } from '../integer-option.js';
import { highlight } from '../output.js';
import { agentTable, sessionTable, snapshotLines, type SnapshotText } from '../output/session-text.js';
import { styleFor } from '../output/style.js';
import { withConnection } from '../remote.js';
import { common, harnessOption, type Common } from './common-options.js';

export function listCommand(): Command {
  return common(
    new Command('list').description('list sessions, most recently active first, with their title hints'),
  )
    .addOption(integerOption('--limit <n>', 'at most this many sessions', { min: 1, max: 100_000 }))
    .action(async (options: Common & { limit?: number }) => {
      const { sessions } = await withConnection(options, (c) =>
        c.call('session.list', options.limit === undefined ? {} : { limit: options.limit }),
      );
      if (options.json === true) return void console.log(JSON.stringify({ sessions }));
      if (sessions.length === 0) return void console.log('No sessions.');
      for (const line of sessionTable(sessions, styleFor(process.stdout), terminalWidth())) console.log(line);
    });
}

export function showCommand(): Command {
  return common(new Command('show').description('show a session: header, projections and its last events'))
    .argument('<id>', 'session id')
    .addOption(integerOption('--events <n>', 'how many of the last events', { min: 0, max: 10_000 }, 20))
    .action(async (id: string, options: Common & { events: number }) => {
      const snapshot = await withConnection(options, async (c) => {
        const snap = await c.call('session.follow', { id, window: options.events });
        await c.call('session.unfollow', { followId: snap.followId });
        return snap;
      });
      if (options.json === true)
        return void console.log(
          JSON.stringify({
            header: snapshot.header,
            cursor: snapshot.cursor,
            projections: snapshot.baseline,
            events: snapshot.events,
          }),
        );
      printSnapshot(snapshot);
    });
}

/** The terminal's width, bounding the last column; none on a pipe (it gets whole lines). */
export function terminalWidth(): number | undefined {
  // A terminal that reports no size (0) is treated like a pipe.
  return process.stdout.isTTY && process.stdout.columns > 0 ? process.stdout.columns : undefined;
}

export function printSnapshot(snapshot: SnapshotText): void {
  for (const line of snapshotLines(snapshot, styleFor(process.stdout), terminalWidth())) console.log(line);
}

export function agentsCommand(): Command {
  return common(new Command('agents').description("list a session's subagents (the list_agents rows)"))
    .argument('<id>', 'parent session id')
    .option('--descendants', 'the whole tree, not just direct children')
    .action(async (id: string, options: Common & { descendants?: boolean }) => {
      const scope = options.descendants === true ? 'descendants' : 'children';
      const { rows } = await withConnection(options, (c) => c.call('subagent.list', { id, scope }));
      if (options.json === true) return void console.log(JSON.stringify({ rows }));
      if (rows.length === 0)
        return void console.log(scope === 'children' ? 'No child agents.' : 'No subagents.');
      for (const line of agentTable(rows, styleFor(process.stdout), terminalWidth())) console.log(line);
    });
}

export function searchCommand(): Command {
  return common(
    new Command('search').description(
      'search titles and message text across sessions (literal; "quoted words" match as a phrase)',
    ),
  )
    .argument('<text...>', 'text to find')
    .addOption(integerOption('--limit <n>', 'sessions per page', { min: 1, max: 100 }, 10))
    .option('--cwd <folder>', 'only sessions whose project folder (header cwd) is exactly this')
    .addOption(harnessOption())
    .action(async (words: string[], options: Common & { limit: number; cwd?: string; harness?: string }) => {
      const page = await withConnection(options, (c) =>
        c.call('session.search', {
          query: words.join(' '),
          limit: options.limit,
          ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
          ...(options.harness === undefined ? {} : { harness: options.harness }),
        }),
      );
      if (options.json === true) return void console.log(JSON.stringify(page));
      if (page.results.length === 0) return void console.log('No matches.');
      for (const result of page.results) {
        console.log(
          result.title === null ? result.sessionId : `${result.sessionId}  ${JSON.stringify(result.title)}`,
        );
        for (const hit of result.hits)
          console.log(`  ${String(hit.seq).padStart(6)}  ${highlight(hit.snippet, process.stdout.isTTY)}`);
      }
    });
}
