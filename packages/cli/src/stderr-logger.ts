import { formatWithOptions } from 'node:util';
import type { LogFields, LogLevel, Logger } from '@strand/session';

/** The threshold a CLI run logs at: a level, or `silent` for nothing. */
export type LogThreshold = LogLevel | 'silent';

const RANK: Readonly<Record<LogThreshold, number>> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 };

/** What `strand` logs at unless `STRAND_LOG` says otherwise: what the libraries contained. */
export const DEFAULT_LOG_LEVEL: LogThreshold = 'warn';

/**
 * The threshold `STRAND_LOG` names. An unknown value is not fatal — logging must never stop a
 * command — so it keeps the default and says once, on stderr, that it was ignored.
 */
export function logThreshold(
  value: string | undefined,
  write: (line: string) => void = (line) => process.stderr.write(line),
): LogThreshold {
  if (value === undefined || value === '') return DEFAULT_LOG_LEVEL;
  const level = value.toLowerCase();
  if (Object.hasOwn(RANK, level)) return level as LogThreshold;
  write(
    `strand: STRAND_LOG=${value} is not one of ${Object.keys(RANK).join(', ')}; logging at ${DEFAULT_LOG_LEVEL}\n`,
  );
  return DEFAULT_LOG_LEVEL;
}

/**
 * The CLI's logger: one line `strand: <message>` per entry at or above `threshold`, then its
 * fields as Node formats them (an error with its stack), on stderr — stdout carries command
 * results and, under `strand mcp`, the protocol, so no log line ever goes there.
 */
export function stderrLogger(
  threshold: LogThreshold,
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const at =
    (level: LogLevel) =>
    (message: string, fields?: LogFields): void => {
      if (RANK[level] < RANK[threshold]) return;
      const { error, ...rest } = fields ?? {};
      const parts: unknown[] = [
        `strand: ${level === 'error' || level === 'warn' ? '' : `${level}: `}${message}`,
      ];
      if (Object.keys(rest).length > 0) parts.push(rest);
      if (error !== undefined) parts.push(error);
      write(`${formatWithOptions({ colors: false }, ...parts)}\n`);
    };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

/** The logger of this `strand` process: stderr at the `STRAND_LOG` threshold. */
export function cliLogger(): Logger {
  return stderrLogger(logThreshold(process.env.STRAND_LOG));
}
