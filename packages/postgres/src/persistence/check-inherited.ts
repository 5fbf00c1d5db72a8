import { SessionError, type SessionEvent, type SessionHeader } from '@strand/session';

/** The inherited prefix must match the header's `isSeeded` and run contiguously from seq 0. */
export function checkInherited(header: SessionHeader, inherited: readonly SessionEvent[]): void {
  if (header.isSeeded !== inherited.length > 0) {
    throw new SessionError(
      'SESSION_HEADER_INVALID',
      `header.isSeeded=${String(header.isSeeded)} contradicts ${inherited.length} inherited events`,
    );
  }
  inherited.forEach((event, index) => {
    if (event.seq !== index) {
      throw new SessionError(
        'SESSION_SEQ_MISMATCH',
        `inherited events: expected seq ${index}, got ${event.seq}`,
      );
    }
  });
}
