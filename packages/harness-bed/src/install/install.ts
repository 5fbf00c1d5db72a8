import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { BedHarness, HarnessPin } from '../pins.js';

const run = promisify(execFile);

/**
 * Where pinned harness CLIs are installed: `STRAND_HARNESS_BED`, else
 * `$XDG_CACHE_HOME/strand/harness-bed` (`~/.cache/…`). Kept apart from the repository's
 * `node_modules` so `npm install` stays light; npm's own cache makes a reinstall cheap.
 */
export function bedRoot(env: NodeJS.ProcessEnv = process.env): string {
  const named = env.STRAND_HARNESS_BED;
  if (named !== undefined && named !== '') return path.resolve(named);
  const cache = env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache');
  return path.join(cache, 'strand', 'harness-bed');
}

/** An installed harness: how to start it. */
export interface InstalledHarness {
  readonly pin: HarnessPin;
  readonly prefix: string;
  /** The program and the arguments before the harness's own. */
  readonly command: string;
  readonly args: readonly string[];
}

const MARKER = 'bed-pin.json';

function prefixOf(root: string, pin: HarnessPin): string {
  return path.join(root, `${pin.harness}@${pin.version}`);
}

/** The installed pin, or `undefined` when it is not installed under `root`. */
export function installedHarness(pin: HarnessPin, root = bedRoot()): InstalledHarness | undefined {
  const prefix = prefixOf(root, pin);
  if (!existsSync(path.join(prefix, MARKER))) return undefined;
  return launcherOf(pin, prefix);
}

/**
 * Installs a pin into its own prefix under `root` (a no-op when it is there). The install goes
 * to a temporary folder renamed into place once complete, so a killed install leaves nothing
 * that looks installed. Package scripts are not run: the harnesses' native parts ship in their
 * platform packages, and their postinstall steps only link those (npm's script policy would skip
 * them anyway).
 */
export async function installHarness(pin: HarnessPin, root = bedRoot()): Promise<InstalledHarness> {
  const done = installedHarness(pin, root);
  if (done !== undefined) return done;
  const prefix = prefixOf(root, pin);
  const staging = `${prefix}.installing-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  await writeFile(path.join(staging, 'package.json'), JSON.stringify({ name: 'bed-prefix', private: true }));
  await run(
    'npm',
    [
      'install',
      '--prefix',
      staging,
      '--no-audit',
      '--no-fund',
      '--no-save',
      '--ignore-scripts',
      '--loglevel',
      'error',
      `${pin.package}@${pin.version}`,
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const launcher = launcherOf(pin, staging);
  if (!existsSync(launcher.args[0] ?? launcher.command))
    throw new Error(
      `${pin.package}@${pin.version} installed, but its program is not at ${launcher.args[0] ?? launcher.command}`,
    );
  await writeFile(path.join(staging, MARKER), JSON.stringify(pin));
  await rm(prefix, { recursive: true, force: true });
  await rename(staging, prefix);
  return launcherOf(pin, prefix);
}

/** The installed version a prefix holds (what `npm` resolved), for reports. */
export async function installedVersion(installed: InstalledHarness): Promise<string> {
  const manifest = path.join(installed.prefix, 'node_modules', installed.pin.package, 'package.json');
  return (JSON.parse(await readFile(manifest, 'utf8')) as { version: string }).version;
}

function launcherOf(pin: HarnessPin, prefix: string): InstalledHarness {
  const modules = path.join(prefix, 'node_modules');
  const node = process.execPath;
  const of = (harness: BedHarness): { command: string; args: string[] } => {
    switch (harness) {
      case 'claude-code':
        // The wrapper's `bin` is replaced by its postinstall; the platform package's binary runs as it is.
        return {
          command: path.join(
            modules,
            '@anthropic-ai',
            `claude-code-${process.platform}-${process.arch}`,
            'claude',
          ),
          args: [],
        };
      case 'codex':
        return { command: node, args: [path.join(modules, '@openai', 'codex', 'bin', 'codex.js')] };
      case 'gemini':
        return { command: node, args: [path.join(modules, '@google', 'gemini-cli', 'bundle', 'gemini.js')] };
      case 'pi':
        return {
          command: node,
          args: [path.join(modules, '@mariozechner', 'pi-coding-agent', 'dist', 'cli.js')],
        };
      case 'opencode':
        // `bin/opencode.exe` is a placeholder its postinstall replaces; the platform package's
        // binary (a Bun executable) runs as it is.
        return {
          command: path.join(modules, `opencode-${process.platform}-${process.arch}`, 'bin', 'opencode'),
          args: [],
        };
      case 'qwen':
        return { command: node, args: [path.join(modules, '@qwen-code', 'qwen-code', 'cli-entry.js')] };
      case 'copilot':
        // `npm-loader.js` only spawns the platform package's binary (a Node single-executable
        // application that unpacks its JavaScript on first start): run that directly.
        return {
          command: path.join(modules, '@github', `copilot-${process.platform}-${process.arch}`, 'copilot'),
          args: [],
        };
      case 'kilo':
        // As opencode (its origin): the wrapper `bin/kilo` only finds and spawns the platform
        // package's Bun binary, which runs as it is.
        return {
          command: path.join(modules, '@kilocode', `cli-${process.platform}-${process.arch}`, 'bin', 'kilo'),
          args: [],
        };
      case 'cline':
        // The wrapper (`bin/cline`) only finds this platform package's binary (Bun, compiled).
        return {
          command: path.join(modules, '@cline', `cli-${process.platform}-${process.arch}`, 'bin', 'cline'),
          args: [],
        };
    }
  };
  return { pin, prefix, ...of(pin.harness) };
}
