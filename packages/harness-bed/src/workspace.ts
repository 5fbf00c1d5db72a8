import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * A scratch machine for one scenario: a home the harness keeps its state and transcripts in, and
 * a working folder it runs in. Nothing of the real user's home is visible to the harness.
 */
export interface Workspace {
  readonly root: string;
  readonly home: string;
  readonly cwd: string;
  remove(): Promise<void>;
}

export async function openWorkspace(label: string): Promise<Workspace> {
  const root = await mkdtemp(path.join(os.tmpdir(), `strand-bed-${label}-`));
  const home = path.join(root, 'home');
  const cwd = path.join(root, 'work');
  await mkdir(home, { recursive: true });
  await mkdir(cwd, { recursive: true });
  return { root, home, cwd, remove: () => rm(root, { recursive: true, force: true }) };
}
