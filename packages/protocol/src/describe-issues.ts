import type { z } from 'zod';

/**
 * A zod error as one line: `path message` per issue, `(params)`-style root name when the issue is
 * at the top. The host's `RPC_INVALID_PARAMS` message and the client's refusals use this shape.
 */
export function describeIssues(error: z.ZodError, root: string): string {
  return error.issues.map((issue) => `${issue.path.join('.') || root} ${issue.message}`).join('; ');
}
