import { mkdir, readFile, readdir, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HarnessWriteError } from './errors.js';
import { writeWhole } from './write-whole.js';

/** The marker naming the folder a project's files are kept under (Gemini CLI's `.project_root`). */
const PROJECT_ROOT_FILE = '.project_root';

/**
 * The folder name Gemini CLI files the project at `cwd` under in `<gemini dir>/tmp/`, claimed the
 * way its `ProjectRegistry.getShortId` does (0.61): the name `projects.json` maps the path to
 * while the `.project_root` markers in `tmp/` and `history/` agree, else a folder whose marker
 * names the path, else the folder's base name as a slug (`-1`, `-2`… when taken), its markers
 * written and the registry updated, under the registry's lock (`projects.json.lock`, a folder, as
 * Gemini CLI's lock library makes it).
 */
export async function geminiProjectFolder(dir: string, cwd: string): Promise<string> {
  const registryPath = path.join(dir, 'projects.json');
  const bases = [path.join(dir, 'tmp'), path.join(dir, 'history')];
  const project = path.resolve(cwd);
  await mkdir(dir, { recursive: true });
  const lock = `${registryPath}.lock`;
  try {
    await mkdir(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new HarnessWriteError(
        'write-failed',
        `Gemini CLI is updating ${registryPath} (${lock} exists): try again`,
        { cause: error },
      );
    throw error;
  }
  try {
    const registry = await readRegistry(registryPath);
    let slug = registry.projects[project];
    if (slug === undefined || !(await ownedBy(bases, slug, project))) {
      slug = (await markedFor(bases, project)) ?? (await claim(bases, project, registry.projects));
      await writeWhole(
        registryPath,
        JSON.stringify({ projects: { ...registry.projects, [project]: slug } }, null, 2),
      );
    }
    for (const base of bases) await mark(path.join(base, slug), project);
    return slug;
  } finally {
    await rmdir(lock);
  }
}

async function readRegistry(file: string): Promise<{ projects: Record<string, string> }> {
  try {
    const data = JSON.parse(await readFile(file, 'utf8')) as { projects?: unknown };
    const projects = data.projects;
    if (
      projects !== null &&
      typeof projects === 'object' &&
      Object.values(projects).every((v) => typeof v === 'string' && /^[a-z0-9-]+$/.test(v))
    )
      return { projects: projects as Record<string, string> };
  } catch {
    // Absent or unreadable: Gemini CLI starts an empty one too.
  }
  return { projects: {} };
}

const ownerOf = (folder: string): Promise<string | undefined> =>
  readFile(path.join(folder, PROJECT_ROOT_FILE), 'utf8').then(
    (text) => path.resolve(text.trim()),
    () => undefined,
  );

async function ownedBy(bases: readonly string[], slug: string, project: string): Promise<boolean> {
  for (const base of bases) {
    const owner = await ownerOf(path.join(base, slug));
    if (owner !== undefined && owner !== project) return false;
  }
  return true;
}

async function markedFor(bases: readonly string[], project: string): Promise<string | undefined> {
  for (const base of bases)
    for (const name of await readdir(base).catch(() => [] as string[]))
      if ((await ownerOf(path.join(base, name))) === project) return name;
  return undefined;
}

async function claim(
  bases: readonly string[],
  project: string,
  taken: Readonly<Record<string, string>>,
): Promise<string> {
  const slug = slugify(path.basename(project) || 'project');
  const used = new Set(Object.values(taken));
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? slug : `${slug}-${n}`;
    if (!used.has(candidate) && (await ownedBy(bases, candidate, project))) return candidate;
  }
}

async function mark(folder: string, project: string): Promise<void> {
  if ((await ownerOf(folder)) === project) return;
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, PROJECT_ROOT_FILE), project, { flag: 'wx' });
}

/** Gemini CLI's slug of a folder name. */
export const slugify = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '') || 'project';
