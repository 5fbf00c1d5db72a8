import { z } from 'zod';
import type { MethodName } from '@strand/protocol';

/**
 * Param schemas per method: the wire is an edge, so everything is validated here and trusted
 * inside. Strict objects: unknown keys are refused, so a typo is an error rather than ignored.
 */
// Only the type here: the rules of a session id (and whether this host can store it) are
// checked after parsing by `sessionIdParamError`, so every malformed id is SESSION_ID_INVALID.
const id = z.string();
const seq = z.number().int().min(0);
const route = {
  provider: z.string().min(1).max(200),
  model: z.string().min(1).max(200),
  reasoningEffort: z.string().min(1).max(50).optional(),
};

export const PARAM_SCHEMAS = {
  'session.list': z.strictObject({ limit: z.number().int().min(1).max(100_000).optional() }),
  'session.search': z.strictObject({
    query: z.string().max(1000),
    limit: z.number().int().min(1).max(100).optional(),
    cursor: z.string().max(2000).optional(),
  }),
  'session.follow': z.strictObject({
    id,
    interactive: z.boolean().optional(),
    window: z.number().int().min(0).max(10_000).optional(),
  }),
  'session.unfollow': z.strictObject({ followId: z.string().min(1).max(100) }),
  'session.page': z.strictObject({
    id,
    beforeSeq: seq.optional(),
    fromSeq: seq.optional(),
    toSeq: seq.optional(),
    limit: z.number().int().min(1).max(10_000).optional(),
  }),
  'session.attachment': z.strictObject({ id, ref: z.string().min(1).max(200) }),
  'session.fork': z.strictObject({ id, atSeq: seq }),
  'subagent.list': z.strictObject({ id, scope: z.enum(['children', 'descendants']).optional() }),
  'session.create': z.strictObject({
    cwd: z.string().max(4096).optional(),
    model: z.strictObject(route).optional(),
    preset: z.string().min(1).max(200).optional(),
    prompt: z.string().max(1_000_000).optional(),
  }),
  'session.prompt': z.strictObject({ id, text: z.string().min(1).max(1_000_000) }),
  'session.cancel': z.strictObject({ id }),
  'session.rename': z.strictObject({ id, title: z.string().min(1).max(500) }),
  'session.selectModel': z.strictObject({ id, ...route }),
  'session.selectPreset': z.strictObject({ id, preset: z.string().min(1).max(200).nullable() }),
  'catalog.models': z.strictObject({}),
  'catalog.presets': z.strictObject({}),
} as const satisfies Record<MethodName, z.ZodType>;

export function isMethodName(method: string): method is MethodName {
  return Object.hasOwn(PARAM_SCHEMAS, method);
}
