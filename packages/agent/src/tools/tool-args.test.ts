import { toolParameters } from '@strand/subagent';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { nonBlank, parseToolArgs } from './args.js';
import { sendMessageTool } from './send-message.js';
import { spawnAgentTool } from './spawn-agent.js';

const schema = z.strictObject({ task: nonBlank(z.string()), label: z.string().min(1).optional() });

describe('tool arguments: one schema, its JSON Schema derived, one parse', () => {
  it('parses what the schema accepts; a null argument means absent', () => {
    expect(parseToolArgs('t', schema, { task: 'go', label: null })).toEqual({ task: 'go' });
  });

  it.each([
    ['a blank required string', { task: '  ' }, 'task: must be a non-empty string'],
    ['an unknown argument', { task: 'go', extra: 1 }, 'Unrecognized key: "extra"'],
    ['a missing required argument', { label: 'x' }, 'task:'],
    ['arguments that are not an object', 'go', 'the arguments:'],
  ])('refuses %s with AGENT_TOOL_ARGUMENTS_INVALID', (_name, raw, reason) => {
    expect(() => parseToolArgs('t', schema, raw)).toThrow(
      expect.objectContaining({
        code: 'AGENT_TOOL_ARGUMENTS_INVALID',
        message: expect.stringContaining(reason) as string,
      }) as Error,
    );
  });

  it('spawn_agent and send_message tell the model exactly what they parse', () => {
    expect(spawnAgentTool.parse({ task: 'look', mode: null, fork: true })).toEqual({
      task: 'look',
      mode: 'one-shot',
      fork: true,
    });
    expect(() => spawnAgentTool.parse({ task: 'look', mode: 'forever' })).toThrow(
      /mode: must be "one-shot" or "continuable"/,
    );
    expect(() => sendMessageTool.parse({ agent_id: 'a', message: 'hi', extra: true })).toThrow(
      /Unrecognized key/,
    );
    for (const tool of [spawnAgentTool, sendMessageTool]) {
      expect(tool.parameters).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.parameters).not.toHaveProperty('$schema');
    }
    expect(toolParameters(schema)).toEqual({
      type: 'object',
      properties: { task: { type: 'string' }, label: { type: 'string', minLength: 1 } },
      required: ['task'],
      additionalProperties: false,
    });
  });
});
