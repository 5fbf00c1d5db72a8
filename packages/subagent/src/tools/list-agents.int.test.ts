import { SessionId } from '@strand/session';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listingStack, type ListingStack } from '../testing/listing-stack.js';
import { LIST_AGENTS_TOOL_NAME, listAgentsTool } from './list-agents.js';
import { toolParameters } from './tool-parameters.js';

let stack: ListingStack;
const P = SessionId('parent');

beforeEach(async () => {
  stack = await listingStack();
  await stack.ordinary('parent', { live: true });
});
afterEach(async () => {
  await stack.close();
});

describe('list_agents tool', () => {
  it('declares its name and a strict JSON-schema for { scope: "children" | "descendants" }', () => {
    expect(listAgentsTool.name).toBe(LIST_AGENTS_TOOL_NAME);
    expect(listAgentsTool.name).toBe('list_agents');
    expect(listAgentsTool.parameters).toEqual({
      type: 'object',
      properties: {
        scope: {
          type: 'string',
          enum: ['children', 'descendants'],
          description: expect.any(String) as string,
        },
      },
      required: ['scope'],
      additionalProperties: false,
    });
    expect(listAgentsTool.description.length).toBeGreaterThan(20);
  });

  it('accepts exactly what its JSON Schema describes, parsed once into the arguments execute takes', () => {
    expect(listAgentsTool.parseArgs({ scope: 'descendants' })).toEqual({ scope: 'descendants' });
    expect(listAgentsTool.parameters).toEqual(toolParameters(listAgentsTool.argsSchema));
  });

  it('lists the calling session’s children and renders them', async () => {
    await stack.child({ id: 'c1', parent: 'parent', state: 'live', createdAt: 1 });
    await stack.child({ id: 'c2', parent: 'parent', state: 'cold', createdAt: 2, descriptor: null });
    await stack.child({
      id: 'g1',
      parent: 'c1',
      state: 'cached',
      createdAt: 3,
      descriptor: { version: 2, mode: 'one-shot' },
    });
    expect(await listAgentsTool.execute(stack.ctx, P, { scope: 'children' })).toBe(
      [
        '2 child agents:',
        '- id="c1" mode=continuable label="label-c1" status=running hasChildren=true',
        '- id="c2" diagnostic=corrupt (its subagent descriptor is missing or unreadable; it cannot be continued)',
      ].join('\n'),
    );
    expect(await listAgentsTool.execute(stack.ctx, P, { scope: 'descendants' })).toBe(
      [
        '3 descendant agents:',
        '- depth=1 parent="parent" id="c1" mode=continuable label="label-c1" status=running hasChildren=true',
        '  - depth=2 parent="c1" id="g1" mode=one-shot status=inactive hasChildren=false',
        '- depth=1 parent="parent" id="c2" diagnostic=corrupt (its subagent descriptor is missing or unreadable; it cannot be continued)',
      ].join('\n'),
    );
  });

  it('renders an empty list for a session without subagents', async () => {
    expect(await listAgentsTool.execute(stack.ctx, P, { scope: 'children' })).toBe('No child agents.');
  });

  it.each([undefined, null, {}, { scope: 'all' }, { scope: 'children', extra: 1 }, 'children'])(
    'refuses arguments outside the schema: %j',
    (args) => {
      expect(() => listAgentsTool.parseArgs(args)).toThrow(
        expect.objectContaining({ code: 'SUBAGENT_CONTROL_INVALID_ARGUMENTS' }) as Error,
      );
    },
  );

  it('passes the signal through: an aborted call is CANCELLED', async () => {
    await expect(
      listAgentsTool.execute(stack.ctx, P, { scope: 'descendants' }, AbortSignal.abort()),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});
