import type { DeepReadonly } from '@strand/session';
import type { z } from 'zod';

/**
 * The TypeScript type of a wire value described by a schema: its parsed output, read-only all the
 * way down, and with optional keys meaning "absent" rather than "present and `undefined`" (JSON
 * has no `undefined`; `exactOptionalPropertyTypes` keeps the two apart). Every wire type is
 * `Wire<typeof someSchema>`, so the schema is the one description and the type cannot drift.
 */
export type Wire<S extends z.ZodType> = DeepReadonly<z.output<S>>;

export type { DeepReadonly };
