import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadModelsFile, ModelsConfigError } from './models-file.js';

const dir = mkdtempSync(path.join(tmpdir(), 'strand-models-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const at = path.join(dir, name);
  writeFileSync(at, text);
  return at;
}

const refusal = (pattern: RegExp): unknown =>
  expect.toSatisfy(
    (e: unknown) =>
      e instanceof ModelsConfigError && e.code === 'RUNTIME_MODELS_INVALID' && pattern.test(e.message),
  );

describe('loadModelsFile', () => {
  it('reads endpoints and the default route, keeping only the fields given', async () => {
    const config = {
      default: { provider: 'local', model: 'llama3.1' },
      models: [
        {
          provider: 'local',
          model: 'llama3.1',
          baseUrl: 'http://127.0.0.1:11434/v1',
          label: 'Llama (local)',
        },
        {
          provider: 'openai',
          model: 'gpt-4o-mini',
          baseUrl: 'https://api.openai.com/v1',
          apiKeyEnv: 'OPENAI_API_KEY',
        },
      ],
    };
    const at = file('two.json', JSON.stringify(config));
    expect(await loadModelsFile(at)).toEqual(config);
  });

  it('refuses a missing file, bad JSON, an unknown key and a missing base URL, naming the file and field', async () => {
    await expect(loadModelsFile(path.join(dir, 'absent.json'))).rejects.toThrow(refusal(/absent\.json/));
    await expect(loadModelsFile(file('bad.json', '{ models: ['))).rejects.toThrow(refusal(/not valid JSON/));
    await expect(
      loadModelsFile(file('extra.json', JSON.stringify({ models: [], defaults: {} }))),
    ).rejects.toThrow(refusal(/defaults/));
    await expect(
      loadModelsFile(file('nourl.json', JSON.stringify({ models: [{ model: 'm' }] }))),
    ).rejects.toThrow(refusal(/models\.0\.baseUrl/));
    await expect(
      loadModelsFile(
        file(
          'env.json',
          JSON.stringify({ models: [{ model: 'm', baseUrl: 'http://x/v1', apiKeyEnv: 'sk-123 secret' }] }),
        ),
      ),
    ).rejects.toThrow(refusal(/apiKeyEnv must be an environment variable name/));
  });
});
