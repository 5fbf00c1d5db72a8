import { defineErrors } from '@strand/session/errors';
import { describe, expect, it } from 'vitest';
import { assembleErrorTable, renamedCodes } from './assemble-error-table.js';

const FIRST = defineErrors('first', {
  FIRST_A: { meaning: 'A.' },
  FIRST_LEGACY: { meaning: 'Legacy.', number: -32090 },
  FIRST_B: { meaning: 'B.', was: 'OLD_FIRST_B' },
});
const SECOND = defineErrors('second', { SECOND_A: { meaning: 'A of second.' } });

describe('assembleErrorTable', () => {
  it('keeps fixed numbers and numbers the rest down from the owner block, in declaration order', () => {
    const table = assembleErrorTable([FIRST, SECOND], { first: -33000, second: -33100 });
    expect(table).toEqual({
      FIRST_A: { rpc: -33000, owner: 'first', meaning: 'A.' },
      FIRST_LEGACY: { rpc: -32090, owner: 'first', meaning: 'Legacy.' },
      FIRST_B: { rpc: -33001, owner: 'first', meaning: 'B.' },
      SECOND_A: { rpc: -33100, owner: 'second', meaning: 'A of second.' },
    });
  });

  it('refuses a code declared by two owners and a code with neither number nor block', () => {
    const twice = defineErrors('third', { FIRST_A: { meaning: 'Again.' } });
    expect(() => assembleErrorTable([FIRST, twice], { first: -33000, third: -33200 })).toThrow(
      /FIRST_A is declared twice/,
    );
    expect(() => assembleErrorTable([SECOND], {})).toThrow(/second has no block/);
  });

  it('maps each old name to the code that replaced it', () => {
    expect([...renamedCodes([FIRST, SECOND])]).toEqual([['OLD_FIRST_B', 'FIRST_B']]);
  });
});
