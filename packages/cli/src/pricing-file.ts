import { promises as fsp } from 'node:fs';
import { parsePricingFile, type ModelRates } from '@strand/host';

/**
 * A `--pricing` file's models (USD per million tokens per model name; the format is
 * `parsePricingFile`'s), read before anything runs: a bad file fails the command, saying why.
 */
export async function readPricingFile(file: string): Promise<Readonly<Record<string, ModelRates>>> {
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`--pricing ${file}: ${(error as Error).message}`);
  }
  const parsed = parsePricingFile(text);
  if (typeof parsed === 'string') throw new Error(`--pricing ${file}: ${parsed}`);
  return parsed.models;
}
