import { describe, expect, it } from 'vitest';
import { BUILT_IN_UNITS, ProjectionRegistry } from '@strand/projection';
import {
  planFork,
  Session,
  SessionId,
  SessionLogOffset,
  type SessionEventInput,
  type SessionHeader,
} from '@strand/session';
import { testHeader } from '@strand/test-support';
import { registerSubagentUnits } from '../projection/register.js';
import { isControlError, type ControlErrorCode } from './errors.js';
import { resolveContinuable, type ObservedChild } from './resolve-continuable.js';

const registry = new ProjectionRegistry({ units: BUILT_IN_UNITS });
registerSubagentUnits(registry);
const PARENT = SessionId('parent');

/** An observation of a child log, with projections folded by the registered units (as `observeSession` does). */
async function observe(
  events: SessionEventInput[],
  header: SessionHeader = testHeader('child', {
    origin: 'subagent',
    parentSession: PARENT,
    delegationDepth: 1,
  }),
): Promise<ObservedChild> {
  const session = new Session({ header });
  await session.append(events);
  return observation(session);
}

function observation(session: Session, values?: Record<string, unknown>): ObservedChild {
  return {
    source: 'cold',
    header: session.header,
    inheritedEventCount: session.inheritedEventCount,
    events: session.events,
    firstSeq: 0,
    cursor: session.cursor,
    projections: { values: values ?? registry.foldAll(session.header, session.events).snapshot.values },
    dispose: () => undefined,
  };
}

const descriptor = (data: unknown): SessionEventInput => ({ type: 'subagent/descriptor', data });
const refusal = (code: ControlErrorCode): unknown => expect.toSatisfy((e) => isControlError(e, code));

describe('resolveContinuable', () => {
  it('accepts a continuable child of this exact parent: label and descriptor seq from its own suffix', async () => {
    const obs = await observe([descriptor({ version: 2, mode: 'continuable', label: 'scout' })]);
    expect(resolveContinuable(obs, PARENT)).toEqual({ id: 'child', label: 'scout', descriptorSeq: 0 });
  });

  it('refuses another parent, a grandparent, and an ordinary session with SUBAGENT_CONTROL_NOT_PARENT', async () => {
    const obs = await observe([descriptor({ version: 2, mode: 'continuable', label: 'x' })]);
    expect(() => resolveContinuable(obs, SessionId('someone-else'))).toThrow(
      refusal('SUBAGENT_CONTROL_NOT_PARENT'),
    );
    const ordinary = await observe([], testHeader('plain', { parentSession: PARENT }));
    expect(() => resolveContinuable(ordinary, PARENT)).toThrow(refusal('SUBAGENT_CONTROL_NOT_PARENT'));
  });

  it('refuses a one-shot child with SUBAGENT_CONTROL_NOT_CONTINUABLE', async () => {
    const obs = await observe([descriptor({ version: 2, mode: 'one-shot', label: 'x' })]);
    expect(() => resolveContinuable(obs, PARENT)).toThrow(refusal('SUBAGENT_CONTROL_NOT_CONTINUABLE'));
  });

  it('a missing, malformed or unknown-version last descriptor folds to null: SUBAGENT_CONTROL_DESCRIPTOR_CORRUPT', async () => {
    for (const events of [
      [],
      [descriptor({ version: 2, mode: 'continuable' })],
      [descriptor({ version: 2, mode: 'continuable', label: 'a' }), descriptor({ version: 9 })],
    ]) {
      const obs = await observe(events);
      expect(() => resolveContinuable(obs, PARENT)).toThrow(refusal('SUBAGENT_CONTROL_DESCRIPTOR_CORRUPT'));
    }
  });

  it('an identity inherited from an ancestor (before the own suffix) is refused as corrupt', async () => {
    const ancestor = new Session({
      header: testHeader('ancestor', { origin: 'subagent', parentSession: PARENT }),
    });
    await ancestor.append([
      descriptor({ version: 2, mode: 'continuable', label: 'old' }),
      { type: 'turn/start', data: {} },
      { type: 'turn/end', data: { reason: 'completed' } },
    ]);
    const plan = planFork(ancestor.id, ancestor.events, 3, {
      id: SessionId('fork'),
      origin: 'subagent',
      parentSession: PARENT,
    });
    const fork = new Session({
      header: plan.header,
      events: plan.events,
      inheritedEventCount: SessionLogOffset(3),
    });
    expect(() => resolveContinuable(observation(fork), PARENT)).toThrow(
      refusal('SUBAGENT_CONTROL_DESCRIPTOR_CORRUPT'),
    );
    await fork.append(descriptor({ version: 2, mode: 'continuable', label: 'new' }));
    expect(resolveContinuable(observation(fork), PARENT)).toEqual({
      id: 'fork',
      label: 'new',
      descriptorSeq: 3,
    });
  });

  it('parses the event at the identity seq with the one parser: unknown version and malformed stay distinct', async () => {
    const session = new Session({
      header: testHeader('child', { origin: 'subagent', parentSession: PARENT }),
    });
    await session.append([
      descriptor({ version: 3, mode: 'continuable', label: 'x' }),
      descriptor({ version: 2, mode: 'continuable', label: 'x', extra: 1 }),
    ]);
    // Identities a unit of another build could have produced for these seqs.
    const pointing = (seq: number): Record<string, unknown> => ({
      subagent: { mode: 'continuable', label: 'x', seq },
    });
    expect(() => resolveContinuable(observation(session, pointing(0)), PARENT)).toThrow(
      refusal('SUBAGENT_CONTROL_DESCRIPTOR_UNSUPPORTED'),
    );
    expect(() => resolveContinuable(observation(session, pointing(1)), PARENT)).toThrow(
      refusal('SUBAGENT_CONTROL_DESCRIPTOR_CORRUPT'),
    );
  });

  it('an observation without the subagent projection is SUBAGENT_CONTROL_PROJECTIONS_UNAVAILABLE', async () => {
    const session = new Session({
      header: testHeader('child', { origin: 'subagent', parentSession: PARENT }),
    });
    await session.append(descriptor({ version: 2, mode: 'continuable', label: 'x' }));
    expect(() => resolveContinuable(observation(session, { title: null }), PARENT)).toThrow(
      refusal('SUBAGENT_CONTROL_PROJECTIONS_UNAVAILABLE'),
    );
  });
});
