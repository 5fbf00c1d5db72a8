import { describe, expect, it } from 'vitest';
import { commandLine, messageText, readCoreEvent, schemaVerdict } from './core-events.js';

describe('readCoreEvent', () => {
  it('types a core event whose data matches, returning the same object', () => {
    const event = { seq: 4, type: 'tool/call', data: { callId: 'c1', name: 'bash', arguments: '{}' } };
    const core = readCoreEvent(event);
    expect(core).toBe(event);
    if (core?.type !== 'tool/call') throw new Error('expected a tool/call');
    expect(core.data.name).toBe('bash');
    expect(core.seq).toBe(4);
  });

  it('leaves opaque a type no schema names and core data that does not match', () => {
    expect(readCoreEvent({ type: 'subagent/descriptor', data: { name: 'x' } })).toBeUndefined();
    expect(readCoreEvent({ type: 'turn/end', data: { reason: 'maybe' } })).toBeUndefined();
    expect(readCoreEvent({ type: 'user/message', data: null })).toBeUndefined();
    expect(readCoreEvent({ type: 'session/title', data: { title: 't', extra: 1 } })).toBeUndefined();
  });
});

describe('messageText', () => {
  const blocks = [
    { type: 'text', text: 'look' },
    { type: 'image', ref: 'a1' },
    { type: 'text', text: 'here' },
  ] as const;

  it('joins text blocks by lines and names images by their ref', () => {
    expect(messageText('plain')).toBe('plain');
    expect(messageText(blocks)).toBe('look\n[image a1]\nhere');
  });

  it('leaves images out when asked for words only', () => {
    expect(messageText(blocks, 'left out')).toBe('look\nhere');
    expect(messageText([{ type: 'image', ref: 'a1' }], 'left out')).toBe('');
  });
});

describe('the command events', () => {
  it('a command is its name and, when typed, its args; its output a text on one stream', () => {
    expect(readCoreEvent({ type: 'session/command', data: { name: 'compact' } })).toBeDefined();
    expect(readCoreEvent({ type: 'session/command', data: { name: 'model', args: 'opus' } })).toBeDefined();
    const output = {
      type: 'session/command-output',
      data: { text: '\u001b[2mCompacted\u001b[22m', stream: 'stdout' },
    };
    expect(readCoreEvent(output)).toBe(output);
  });

  it('refuses what the vocabulary does not name', () => {
    expect(schemaVerdict('session/command', { args: 'x' })).toMatch(/^name/);
    expect(schemaVerdict('session/command', { name: 'compact', output: 'done' })).toBeDefined();
    expect(schemaVerdict('session/command-output', { text: 'ok' })).toMatch(/^stream/);
    expect(schemaVerdict('session/command-output', { text: 'ok', stream: 'tty' })).toMatch(/^stream/);
  });
});

describe('schemaVerdict', () => {
  it('names the place of the first problem', () => {
    expect(schemaVerdict('tool/result', { callId: 'c', content: [{ type: 'text' }] })).toMatch(/^content/);
    expect(schemaVerdict('session/title', { title: 'ok' })).toBeUndefined();
  });
});

describe('commandLine', () => {
  it('spells a command as typed: the slash, the name, the args after one space, none without args', () => {
    expect(commandLine({ name: 'compact' })).toBe('/compact');
    expect(commandLine({ name: 'model', args: 'opus' })).toBe('/model opus');
    expect(commandLine({ name: 'model', args: '' })).toBe('/model ');
  });
});
