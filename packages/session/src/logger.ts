/**
 * The one logging port of Strand's libraries: where a component reports what it contained — a
 * failure nobody awaits, a listener that threw, a read fault turned into a miss. A library never
 * writes to the console itself; the composition root (the CLI) passes a logger that decides where
 * lines go, and everyone else gets `silentLogger`. `fields` carries structured context; a caught
 * failure travels as `fields.error`, unformatted, so a sink can print its stack or serialize it.
 */
export type LogFields = Readonly<Record<string, unknown>>;

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  error(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
}

const ignore = (): void => undefined;

/** The default for library users and tests: every line is dropped. */
export const silentLogger: Logger = Object.freeze({
  error: ignore,
  warn: ignore,
  info: ignore,
  debug: ignore,
});

/**
 * An error sink (`(error) => void`, the shape of the `reportError` options) that logs at level
 * `error` under `message`, the failure as `fields.error`.
 */
export function reportTo(logger: Logger, message: string): (error: unknown) => void {
  return (error) => logger.error(message, { error });
}
