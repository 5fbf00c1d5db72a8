import type { SessionHeader } from '@strand/session';

/** A session written as one harness's transcript file. */
export interface HarnessTranscript {
  /** The file's name in the folder the harness looks in. */
  readonly fileName: string;
  /** The session's working folder, where the harness resumes it. */
  readonly cwd: string;
  /** The JSONL, one record a line, each line ended; empty for a session with no conversation. */
  readonly text: string;
  /** What the transcript could not hold, one line per kind. */
  readonly leftOut: readonly string[];
}

export class HarnessExportError extends Error {
  override readonly name = 'HarnessExportError';
  readonly code = 'EXPORT_NO_CWD';
}

/** The working folder a harness files and resumes the session in: a session without one is refused. */
export function cwdOf(header: SessionHeader): string {
  if (header.cwd === undefined)
    throw new HarnessExportError(`session ${header.id} has no working folder to file it under`);
  return header.cwd;
}
