import type { z } from 'zod';

/**
 * Parses a configuration file's text as JSON and validates it with `schema`: one rule for every
 * file the host reads (models, presets), so each failure names the file and every bad field the
 * same way. `fail` makes the file's own typed error.
 */
export function parseJsonConfig<T>(
  file: string,
  text: string,
  schema: z.ZodType<T>,
  fail: (message: string) => Error,
): T {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw fail(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success)
    throw fail(
      `${file}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'} ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}
