import { defined } from '@strand/session';
import { Command } from 'commander';
import {
  DEFAULT_LIST_PAGE_LIMIT,
  isPagedListCall,
  MAX_LIST_PAGE_LIMIT,
  MAX_WHOLE_LIST_LIMIT,
  type ParamsOf,
} from '@strand/protocol';
import { integerOption } from '../integer-option.js';
import { highlight } from '../output.js';
import { agentTable, sessionTable, snapshotLines, type SnapshotText } from '../output/session-text.js';
import { styleFor } from '../output/style.js';
import { withConnection } from '../remote.js';
import { failUsage } from '../usage-error.js';
import { common, harnessOption, type Common } from './common-options.js';
import { shellWord } from '../output/shell-word.js';

type ListParams = ParamsOf<'session.list'>;

interface ListOptions extends Common {
  limit?: number;
  cursor?: string;
  harness?: string;
  cwd?: string;
  topLevel?: boolean;
}

export function listCommand(): Command {
  return common(
    new Command('list').description('list sessions, most recently active first, with their title hints'),
  )
    .addOption(
      integerOption(
        '--limit <n>',
        `at most this many sessions (${MAX_LIST_PAGE_LIMIT} with --cursor or a filter; ${DEFAULT_LIST_PAGE_LIMIT} by default then)`,
        { min: 1, max: MAX_WHOLE_LIST_LIMIT },
      ),
    )
    .option('--cursor <cursor>', 'the next page: the cursor the previous page printed (same filters)')
    .addOption(harnessOption())
    .option('--cwd <folder>', 'only sessions whose working folder is exactly this')
    .option('--top-level', 'only sessions that are not a subagent of another')
    .action(async (options: ListOptions) => {
      const params = listParams(options);
      if (params.limit !== undefined && params.limit > MAX_LIST_PAGE_LIMIT && isPagedListCall(params))
        failUsage(
          `--limit is at most ${MAX_LIST_PAGE_LIMIT} with --cursor or a filter (a page at a time).`,
          'strand.list.limit',
        );
      const { sessions, nextCursor } = await withConnection(options, (c) => c.call('session.list', params));
      if (options.json === true)
        return void console.log(
          JSON.stringify(nextCursor === undefined ? { sessions } : { sessions, nextCursor }),
        );
      if (sessions.length === 0) console.log('No sessions.');
      else
        for (const line of sessionTable(sessions, styleFor(process.stdout), terminalWidth()))
          console.log(line);
      // On stderr, so `strand list | …` pipes the rows alone; the line is the command to run next.
      if (nextCursor !== undefined)
        process.stderr.write(`strand: more sessions: ${nextPageCommand(options, nextCursor)}\n`);
    });
}

/** `session.list`'s params from the options: a filter or cursor makes the call a paged one. */
function listParams(options: ListOptions): ListParams {
  return {
    ...defined({ limit: options.limit, cursor: options.cursor, harness: options.harness, cwd: options.cwd }),
    ...(options.topLevel === true ? { parent: null } : {}),
  };
}

/** The `strand list` that prints the next page: the same filters and limit, the new cursor. */
export function nextPageCommand(options: ListOptions, cursor: string): string {
  const words = ['strand', 'list', '--cursor', shellWord(cursor)];
  if (options.limit !== undefined) words.push('--limit', String(options.limit));
  if (options.harness !== undefined) words.push('--harness', options.harness);
  if (options.cwd !== undefined) words.push('--cwd', shellWord(options.cwd));
  if (options.topLevel === true) words.push('--top-level');
  return words.join(' ');
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
          ...defined({ cwd: options.cwd, harness: options.harness }),
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
