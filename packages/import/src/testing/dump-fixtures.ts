import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { PACKAGE_SRC, workspace, type Workspace } from './fixture-dirs.js';

/** A harness's database dumps (`<harness>/fixtures/db/<scenario>.json`): the scenario names, sorted, and each one's file. */
export function dbDumps(harness: string): {
  readonly names: string[];
  readonly file: (name: string) => string;
} {
  const dir = path.join(PACKAGE_SRC, harness, 'fixtures', 'db');
  const names = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.replace(/\.json$/, ''))
    .sort();
  return { names, file: (name) => path.join(dir, `${name}.json`) };
}

/** A maker of fresh workspaces that are disposed after each test (call it at a suite's top level). */
export function workspacesPerTest(prefix: string): () => Workspace {
  let open: Workspace[] = [];
  afterEach(() => {
    for (const w of open) w.dispose();
    open = [];
  });
  return () => {
    const w = workspace(prefix);
    open.push(w);
    return w;
  };
}
