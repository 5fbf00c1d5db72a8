import type { WireEvent } from '@strand/protocol';

/** Edge checks for follow data arriving from the wire (trusted as typed once they pass). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isSeq(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

export function isWireEvent(value: unknown): value is WireEvent {
  return (
    isRecord(value) &&
    typeof value.type === 'string' &&
    isSeq(value.seq) &&
    typeof value.time === 'number' &&
    Object.hasOwn(value, 'data')
  );
}

/** `null` when `events` is a contiguous run of well-formed events, else why not ("expected N, got M"). */
export function contiguityProblem(events: readonly unknown[], firstSeq: number): string | null {
  for (let index = 0; index < events.length; index += 1) {
    const event = events[index];
    if (!isWireEvent(event)) return `event ${index} is not a wire event`;
    if (event.seq !== firstSeq + index) return `expected seq ${firstSeq + index}, got ${event.seq}`;
  }
  return null;
}
