/**
 * A reader that stops early (`strand list | head`) closes the pipe; the next write fails with
 * EPIPE. That is the reader's choice, not a failure of the command: end quietly with status 0,
 * as Unix tools do, instead of an unhandled 'error' event's stack trace. Any other stream error
 * is still a failure, reported on one line.
 */
export function exitQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    // stderr may be the broken stream; the status is what remains to tell.
    try {
      process.stderr.write(`strand: ${error.message}\n`);
    } catch {
      // Nothing left to report on: the exit status says it.
    }
    process.exit(1);
  });
}
