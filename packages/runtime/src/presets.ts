import { defined } from '@strand/session';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { parseJsonConfig } from './json-config.js';
import type { PresetCatalogEntry } from '@strand/protocol';
import { RUNTIME_ERRORS } from '@strand/session/errors';

/** Built-in agent presets; a `presets.json` in the data folder replaces them. */
export const DEFAULT_PRESETS: readonly PresetCatalogEntry[] = [
  {
    name: 'general',
    description: 'A general coding agent that may delegate to subagents.',
    allowedTools: ['spawn_agent', 'send_message', 'list_agents'],
  },
  { name: 'solo', description: 'Works alone: no subagents.', allowedTools: [] },
  {
    name: 'reviewer',
    description: 'Reads and reviews; may list its subagents but not spawn them.',
    allowedTools: ['list_agents'],
  },
];

const PresetFile = z.array(
  z.strictObject({
    name: z.string().min(1).max(200),
    description: z.string().max(2000),
    systemPrompt: z.string().max(100_000).optional(),
    allowedTools: z.array(z.string().min(1)).max(100),
    defaultModel: z.strictObject({ provider: z.string().min(1), model: z.string().min(1) }).optional(),
  }),
);

export class PresetConfigError extends RUNTIME_ERRORS.codeClass(
  'RUNTIME_PRESETS_INVALID',
  'PresetConfigError',
) {}

/** Loads presets from `file` if it exists, else the built-ins. A malformed file is a clear error, not a silent default. */
export async function loadPresets(file: string): Promise<readonly PresetCatalogEntry[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return DEFAULT_PRESETS;
    throw error;
  }
  const presets = parseJsonConfig(file, text, PresetFile, (message) => new PresetConfigError(message));
  return presets.map(({ name, description, allowedTools, defaultModel }) => ({
    name,
    description,
    allowedTools,
    ...defined({ defaultModel }),
  }));
}
