import type { SessionLogOffset } from '@strand/session';

// projection imports only *types* from @strand/session (a browser bundle of projection stays free
// of session's runtime), so it brands its own internally computed, already-valid offsets here.

/** Brands a log offset the registry computed itself (a length or a row's checked cut). */
export const offset = (value: number): SessionLogOffset => value as SessionLogOffset;
