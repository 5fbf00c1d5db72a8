import { toFrozenJson, type SessionEventInput } from '@strand/session';
import { SUBAGENT_ERRORS } from '@strand/session/errors';

/** The event type a subagent child's log carries its identity in (the listing contract). */
export const SUBAGENT_DESCRIPTOR_EVENT = 'subagent/descriptor';
export const SUBAGENT_DESCRIPTOR_VERSION = 2;

/**
 * Descriptor v2. Key sets are strict: a one-shot child may have a label, a continuable child
 * must (a parent continues it by that label).
 */
export type SubagentDescriptor =
  | { readonly version: 2; readonly mode: 'one-shot'; readonly label?: string }
  | { readonly version: 2; readonly mode: 'continuable'; readonly label: string };

/**
 * The one descriptor parser. It tells "unknown version" from "malformed" for the writer and for
 * resume; the identity unit folds both to `null`.
 */
export type DescriptorParse =
  | { readonly kind: 'ok'; readonly descriptor: SubagentDescriptor }
  | { readonly kind: 'unknown-version'; readonly version: unknown }
  | { readonly kind: 'malformed'; readonly reason: string };

export function parseSubagentDescriptor(data: unknown): DescriptorParse {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { kind: 'malformed', reason: 'not an object' };
  const d = data as Record<string, unknown>;
  if (d.version !== SUBAGENT_DESCRIPTOR_VERSION) {
    return Number.isSafeInteger(d.version)
      ? { kind: 'unknown-version', version: d.version }
      : { kind: 'malformed', reason: 'version' };
  }
  const keys = Object.keys(d);
  if (d.mode === 'one-shot') {
    if (keys.some((k) => k !== 'version' && k !== 'mode' && k !== 'label'))
      return { kind: 'malformed', reason: 'unexpected key' };
    if (d.label !== undefined && (typeof d.label !== 'string' || d.label.length === 0))
      return { kind: 'malformed', reason: 'label' };
    return {
      kind: 'ok',
      descriptor:
        d.label === undefined
          ? { version: 2, mode: 'one-shot' }
          : { version: 2, mode: 'one-shot', label: d.label },
    };
  }
  if (d.mode === 'continuable') {
    if (keys.length !== 3 || !keys.includes('label'))
      return { kind: 'malformed', reason: 'a continuable descriptor has exactly version, mode and label' };
    if (typeof d.label !== 'string' || d.label.length === 0) return { kind: 'malformed', reason: 'label' };
    return { kind: 'ok', descriptor: { version: 2, mode: 'continuable', label: d.label } };
  }
  return { kind: 'malformed', reason: 'mode' };
}

export class DescriptorWriteError extends SUBAGENT_ERRORS.codeClass(
  'SUBAGENT_DESCRIPTOR_INVALID',
  'DescriptorWriteError',
) {}

/**
 * Builds the descriptor event to append. Refuses a descriptor the parser would not accept or
 * that does not survive a JSON round trip unchanged.
 */
export function descriptorEvent(descriptor: SubagentDescriptor): SessionEventInput {
  let data: unknown;
  try {
    data = toFrozenJson(descriptor);
  } catch (error) {
    throw new DescriptorWriteError('subagent descriptor is not lossless JSON', { cause: error });
  }
  const roundTrip = JSON.parse(JSON.stringify(data)) as unknown;
  const parsed = parseSubagentDescriptor(roundTrip);
  if (parsed.kind !== 'ok')
    throw new DescriptorWriteError(
      `subagent descriptor refused: ${parsed.kind === 'malformed' ? parsed.reason : 'unknown version'}`,
    );
  return { type: SUBAGENT_DESCRIPTOR_EVENT, data };
}
