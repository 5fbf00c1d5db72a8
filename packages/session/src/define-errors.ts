/**
 * One way to declare a package's errors. A package names its owner and, per stable code, one
 * line of meaning (and, for the codes that travelled before owner blocks, their fixed JSON-RPC
 * integer); from that it gets its codes list, its code type and its error classes, and the
 * protocol assembles the wire table from the same declarations. Browser-safe: the declarations
 * live in this package so `protocol` (and through it every client) can read them.
 */

export interface ErrorDeclaration {
  /** One line: what happened, as a client or an operator reads it. */
  readonly meaning: string;
  /**
   * The fixed JSON-RPC integer of a code that travelled before owner blocks existed (`-32xxx`).
   * Every other code is numbered by its place in its owner's block (`protocol` assigns it).
   */
  readonly number?: number;
  /** The code's previous name: clients still accept it for one minor version. */
  readonly was?: string;
}

/** The fields every package error class takes; a class adds its own facts beside `cause`. */
export interface StrandErrorOptions {
  readonly cause?: unknown;
}

/** What `toJSON` gives: name, code and message, plus the facts the class chose to show. */
export type StrandErrorJson<Code extends string> = {
  readonly name: string;
  readonly code: Code;
  readonly message: string;
} & Readonly<Record<string, unknown>>;

/**
 * The base of every package error class: a stable `code` callers switch on (never `message`),
 * `cause` kept for the underlying failure, and a `toJSON` that shows only what the class lists in
 * `jsonFields` — internals stay out of logs and wire `data`.
 */
export class StrandError<Code extends string = string> extends Error {
  // Each class from `errorClass`/`codeClass` names itself; a class name would not survive minifying.
  override readonly name: string = 'StrandError';
  readonly code: Code;

  constructor(code: Code, message: string, options?: StrandErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }

  toJSON(): StrandErrorJson<Code> {
    return { name: this.name, code: this.code, message: this.message, ...this.jsonFields() };
  }

  /** The class's own facts for `toJSON` (e.g. `sessionId`, `details`); none by default. */
  protected jsonFields(): Readonly<Record<string, unknown>> {
    return {};
  }
}

/** A class whose constructor takes the code: one class for all of a package's codes. */
export type StrandErrorClass<Code extends string> = new (
  code: Code,
  message: string,
  options?: StrandErrorOptions,
) => StrandError<Code>;

/** A class for exactly one code: the constructor takes only the message. */
export type StrandCodeErrorClass<Code extends string> = new (
  message: string,
  options?: StrandErrorOptions,
) => StrandError<Code>;

/** What a reader of declarations (the wire table) needs: the owner, its codes, each one's declaration. */
export interface DeclaredCodes<Owner extends string, Code extends string> {
  readonly owner: Owner;
  /** Every code, in declaration order (the order that numbers a block: append new codes last). */
  readonly codes: readonly Code[];
  declarationOf(code: Code): ErrorDeclaration;
}

export interface DefinedErrors<Owner extends string, Code extends string> extends DeclaredCodes<Owner, Code> {
  /** Whether `value` is one of these codes. */
  has(value: unknown): value is Code;
  /**
   * The class for these codes (or a subset of them, when a package has one class per part), named
   * `name`. Extend it to add the class's own facts.
   */
  errorClass<C extends Code = Code>(name: string): StrandErrorClass<C>;
  /** The class for one code, named `name` (a configuration refusal that only ever has that code). */
  codeClass<C extends Code>(code: C, name: string): StrandCodeErrorClass<C>;
}

const CODE_SHAPE = /^[A-Z][A-Z0-9_]*$/;

/** Declares `owner`'s stable codes; see the module comment. */
export function defineErrors<const Owner extends string, const D extends Record<string, ErrorDeclaration>>(
  owner: Owner,
  declarations: D,
): DefinedErrors<Owner, keyof D & string> {
  type Code = keyof D & string;
  const codes = Object.freeze(Object.keys(declarations)) as readonly Code[];
  for (const code of codes) {
    // A malformed code would pass `stableCodeOf` checks elsewhere only by luck: refuse it here.
    if (!CODE_SHAPE.test(code)) throw new Error(`error code ${code} of ${owner} is not UPPER_SNAKE_CASE`);
    if (declarations[code]!.meaning.trim() === '')
      throw new Error(`error code ${code} of ${owner} has no meaning`);
  }
  // Frozen copies: the wire table reads a declaration; nothing changes it after the fact.
  const declared = new Map<string, ErrorDeclaration>();
  for (const code of codes) {
    const declaration: ErrorDeclaration = declarations[code]!;
    declared.set(code, Object.freeze({ ...declaration }));
  }
  return Object.freeze({
    owner,
    codes,
    declarationOf: (code: Code): ErrorDeclaration => declared.get(code)!,
    has: (value: unknown): value is Code => typeof value === 'string' && declared.has(value),
    errorClass<C extends Code>(name: string): StrandErrorClass<C> {
      return class extends StrandError<C> {
        override readonly name = name;
      };
    },
    codeClass<C extends Code>(code: C, name: string): StrandCodeErrorClass<C> {
      return class extends StrandError<C> {
        override readonly name = name;
        constructor(message: string, options?: StrandErrorOptions) {
          super(code, message, options);
        }
      };
    },
  });
}

/** Whether `error` is any package's error (built by `defineErrors`). */
export function isStrandError(error: unknown): error is StrandError {
  return error instanceof StrandError;
}
