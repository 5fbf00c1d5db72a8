import { describe, expect, it } from 'vitest';
import { COMMANDS } from './command-list.js';

describe('the lazy command list', () => {
  it.each(COMMANDS.map((entry) => [entry.name, entry] as const))(
    '%s loads the command it lists, with the same description and arguments',
    async (name, entry) => {
      const command = await entry.load();
      expect(command.name()).toBe(name);
      expect(command.description()).toBe(entry.description);
      const args = command.registeredArguments
        .map((a) => {
          const text = `${a.name()}${a.variadic ? '...' : ''}`;
          return a.required ? `<${text}>` : `[${text}]`;
        })
        .join(' ');
      expect(args).toBe(entry.args ?? '');
    },
  );

  it('names each command once', () => {
    const names = COMMANDS.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
