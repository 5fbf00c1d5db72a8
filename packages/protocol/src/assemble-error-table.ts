import type { DeclaredCodes } from '@strand/session/errors';

export interface ErrorEntry<Owner extends string = string> {
  readonly rpc: number;
  readonly owner: Owner;
  readonly meaning: string;
}

/**
 * The wire table from the package declarations: a code with a fixed `number` keeps it; every other
 * code takes the next integer of its owner's block (counting down from `blocks[owner]`), in
 * declaration order. So a new code is appended to its declaration and numbering never moves —
 * `error-numbers.snapshot.json` and its test hold every number that ever travelled.
 */
export function assembleErrorTable<Owner extends string, Code extends string>(
  declarations: readonly DeclaredCodes<Owner, Code>[],
  blocks: Readonly<Partial<Record<Owner, number>>>,
): Readonly<Record<Code, ErrorEntry<Owner>>> {
  const table = {} as Record<Code, ErrorEntry<Owner>>;
  for (const declared of declarations) {
    const { owner } = declared;
    let next = blocks[owner];
    for (const code of declared.codes) {
      if (Object.hasOwn(table, code)) throw new Error(`error code ${code} is declared twice`);
      const { meaning, number } = declared.declarationOf(code);
      let rpc = number;
      if (rpc === undefined) {
        if (next === undefined) throw new Error(`error code ${code}: ${owner} has no block and no number`);
        rpc = next--;
      }
      table[code] = Object.freeze({ rpc, owner, meaning });
    }
  }
  return Object.freeze(table);
}

/** Old code name → the code that replaced it, from each declaration's `was`. */
export function renamedCodes<Code extends string>(
  declarations: readonly DeclaredCodes<string, Code>[],
): ReadonlyMap<string, Code> {
  const renamed = new Map<string, Code>();
  for (const declared of declarations)
    for (const code of declared.codes) {
      const was = declared.declarationOf(code).was;
      if (was !== undefined) renamed.set(was, code);
    }
  return renamed;
}
