import { contiguityProblem, seqSchema, wireEventSchema, type WireEvent } from '@strand/protocol';

const eventRunSchema = wireEventSchema.array();

export type EventRunCheck =
  | { readonly kind: 'valid'; readonly events: readonly WireEvent[] }
  | { readonly kind: 'invalid'; readonly reason: string };

/**
 * Checks a run of events from the wire with the protocol's event schema: every one a wire event,
 * seqs contiguous from `firstSeq` (or from the first event's seq when `firstSeq` is absent). The
 * events returned are the ones received (checked, not copied), trusted as typed from here on.
 */
export function checkEventRun(batch: readonly unknown[], firstSeq?: number): EventRunCheck {
  const parsed = eventRunSchema.safeParse(batch);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.slice(1).join('.') ?? '';
    return {
      kind: 'invalid',
      reason: `event ${String(issue?.path[0] ?? 0)} is not a wire event (${where === '' ? '' : `${where} `}${issue?.message ?? ''})`,
    };
  }
  const events = batch as readonly WireEvent[];
  const start = firstSeq ?? events[0]?.seq ?? 0;
  // The schema types each seq only; a contiguous run from an integer ≥ 0 makes them all seqs.
  if (!seqSchema.safeParse(start).success) return { kind: 'invalid', reason: `seq ${start} is not a seq` };
  const problem = contiguityProblem(events, start);
  return problem === null ? { kind: 'valid', events } : { kind: 'invalid', reason: problem };
}
