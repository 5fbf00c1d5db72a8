import { defined } from '@strand/session';
import { userInfo } from 'node:os';
import { Command, InvalidArgumentError } from 'commander';
import type { ShareGrantView } from '@strand/protocol';
import { readTarget, withHost } from '../remote.js';
import { RemoteHostError } from '../remote-error.js';
import { failUsage } from '../usage-error.js';
import { common, type Common } from './common-options.js';

interface ShareOptions extends Common {
  expires?: number | null;
  descendants?: boolean;
  label?: string;
  list?: boolean;
  revoke?: string;
}

const UNIT_MS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `--expires`: `<n>m|h|d|w` or `never` (null). */
export function parseExpiry(text: string): number | null {
  if (text === 'never') return null;
  const match = /^([1-9]\d{0,4})([mhdw])$/.exec(text);
  if (match === null) throw new InvalidArgumentError('expected a duration such as 1h, 7d, 2w, or never.');
  return Number(match[1]) * UNIT_MS[match[2]!]!;
}

/**
 * `strand share`: grants are made, listed and revoked by the running host (the one holding the
 * data folder, or `--url` with its `--token`), never by writing the folder behind its back.
 */
export function shareCommand(): Command {
  return common(
    new Command('share')
      .description('make a read-only link to a session (expiring, revocable), list links, or revoke one')
      .argument('[id]', 'the session to share'),
  )
    .option(
      '--expires <duration>',
      'how long the link works: 30m, 1h, 7d, 2w or never (default 7d)',
      parseExpiry,
    )
    .option('--descendants', "include the session's subagents")
    .option('--label <text>', 'a note to recognise the link by in --list')
    .option('--list', 'list the links (their grants: only hashes of the tokens are kept)')
    .option('--revoke <grant>', 'revoke a link by its grant id or its token')
    .action(async (id: string | undefined, options: ShareOptions) => {
      const modes = [id !== undefined, options.list === true, options.revoke !== undefined].filter(Boolean);
      if (modes.length !== 1)
        failUsage('share needs one of: <id>, --list, --revoke <grant>', 'strand.share.mode');
      const target = await readTarget(options);
      if (target.kind !== 'host')
        throw new RemoteHostError(
          'CLI_SHARE_NEEDS_HOST',
          `strand share needs a running host: none holds ${options.data} (start \`strand serve\`, or pass --url and --token)`,
          options.url ?? options.data,
        );
      await withHost(target.rpcUrl, target.token, async (c) => {
        if (options.list === true) {
          const { grants } = await c.call('share.list', {});
          if (options.json === true) return void console.log(JSON.stringify(grants));
          if (grants.length === 0) return void console.log('No share links.');
          for (const grant of grants) console.log(grantLine(grant));
          return;
        }
        if (options.revoke !== undefined) {
          const answer = await c.call('share.revoke', { grant: options.revoke });
          if (options.json === true) return void console.log(JSON.stringify(answer));
          console.log(answer.revoked ? `revoked ${answer.grantId}` : `${answer.grantId} was already revoked`);
          return;
        }
        const made = await c.call('share.create', {
          id: id!,
          createdBy: `cli:${userInfo().username}`,
          ...defined({ expiresInMs: options.expires }),
          ...(options.descendants === true ? { descendants: true } : {}),
          ...defined({ label: options.label }),
        });
        if (options.json === true) return void console.log(JSON.stringify(made));
        console.log(made.url);
      });
    });
}

function grantLine(grant: ShareGrantView): string {
  const expires = grant.expiresAt === null ? 'never expires' : `expires ${grant.expiresAt}`;
  const parts = [grant.grantId, grant.status, grant.sessionId, expires, grant.createdBy];
  if (grant.descendants) parts.push('with subagents');
  if (grant.label !== null) parts.push(JSON.stringify(grant.label));
  return parts.join('  ');
}
