import type { SessionEvent, SessionHeader, SessionId, SessionLogOffset, SessionSeq } from '@strand/session';
import { parseSubagentDescriptor, SUBAGENT_DESCRIPTOR_EVENT } from '../descriptor.js';
import { controlError } from './errors.js';

/** The parts of one `SessionObservation` (mode `all`, no window) that resolution reads. */
export interface ObservedChild {
  readonly source: 'live' | 'cold';
  readonly header: SessionHeader;
  readonly inheritedEventCount: SessionLogOffset;
  readonly events: readonly SessionEvent[];
  readonly firstSeq: number;
  readonly cursor: SessionLogOffset;
  readonly projections: { readonly values: Readonly<Record<string, unknown>> } | undefined;
  /** Releases the read lease; idempotent. */
  dispose(): void;
}

export interface ContinuableChild {
  readonly id: SessionId;
  readonly label: string;
  /** The seq of the descriptor the identity was folded from (in the child's own suffix). */
  readonly descriptorSeq: SessionSeq;
}

/**
 * Decides, from one observation, whether `parentId` may continue this child (pure).
 *
 * Authorization comes first and uses header facts only: the child must be a subagent whose
 * `parentSession` is exactly `parentId`. Identity comes from the `subagent` projection (the one
 * fold authority: last-wins, carrying the descriptor's seq); the seq must be in the child's own
 * suffix; the event at that seq is parsed with the same `parseSubagentDescriptor` the unit uses —
 * one selection rule, one parser — so "unknown version" and "malformed" stay distinguishable.
 */
export function resolveContinuable(observation: ObservedChild, parentId: SessionId): ContinuableChild {
  const { header } = observation;
  const id = header.id;
  if (header.origin !== 'subagent' || header.parentSession !== parentId) {
    throw controlError(
      'SUBAGENT_CONTROL_NOT_PARENT',
      `session ${parentId} is not the direct parent of ${id}`,
      { sessionId: id },
    );
  }
  const values = observation.projections?.values;
  if (values === undefined || !Object.hasOwn(values, 'subagent')) {
    throw controlError(
      'SUBAGENT_CONTROL_PROJECTIONS_UNAVAILABLE',
      `the observation of ${id} carries no subagent identity: is the subagent unit registered?`,
      { sessionId: id },
    );
  }
  const seq = identitySeqOf(values.subagent);
  if (seq === undefined) {
    throw controlError('SUBAGENT_CONTROL_DESCRIPTOR_CORRUPT', `child ${id} has no readable descriptor`, {
      sessionId: id,
    });
  }
  if (seq < observation.inheritedEventCount || seq >= observation.cursor) {
    throw controlError(
      'SUBAGENT_CONTROL_DESCRIPTOR_CORRUPT',
      `child ${id}'s identity comes from seq ${seq}, outside its own suffix`,
      {
        sessionId: id,
      },
    );
  }
  const event = observation.events[seq - observation.firstSeq];
  if (event?.seq !== seq || event.type !== SUBAGENT_DESCRIPTOR_EVENT) {
    throw controlError(
      'SUBAGENT_CONTROL_DESCRIPTOR_CORRUPT',
      `child ${id} has no descriptor event at seq ${seq}`,
      { sessionId: id },
    );
  }
  const parsed = parseSubagentDescriptor(event.data);
  switch (parsed.kind) {
    case 'unknown-version':
      throw controlError(
        'SUBAGENT_CONTROL_DESCRIPTOR_UNSUPPORTED',
        `child ${id}'s descriptor has version ${JSON.stringify(parsed.version)}, which this build does not read`,
        { sessionId: id },
      );
    case 'malformed':
      throw controlError(
        'SUBAGENT_CONTROL_DESCRIPTOR_CORRUPT',
        `child ${id}'s descriptor is malformed: ${parsed.reason}`,
        {
          sessionId: id,
        },
      );
    case 'ok':
      if (parsed.descriptor.mode !== 'continuable') {
        throw controlError(
          'SUBAGENT_CONTROL_NOT_CONTINUABLE',
          `child ${id} is one-shot and cannot be continued`,
          { sessionId: id },
        );
      }
      return { id, label: parsed.descriptor.label, descriptorSeq: seq };
    default:
      return parsed satisfies never;
  }
}

/**
 * The seq an identity value carries. This reads a projection *value* (the unit's output), never
 * event data; mode and label are taken from the parsed descriptor, not from here.
 */
function identitySeqOf(value: unknown): SessionSeq | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const seq = (value as { seq?: unknown }).seq;
  return Number.isSafeInteger(seq) && (seq as number) >= 0 ? (seq as SessionSeq) : undefined;
}
