import { z } from 'zod';

/**
 * The JSON Schema a model is shown for a tool, derived from the tool's one zod schema of its
 * arguments (so what the model is told and what the tool accepts cannot drift). The `$schema`
 * dialect marker is left out: model APIs take the bare object schema.
 */
export function toolParameters(schema: z.ZodType): Readonly<Record<string, unknown>> {
  const { $schema: _dialect, ...parameters } = z.toJSONSchema(schema);
  return parameters;
}
