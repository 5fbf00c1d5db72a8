// `npm run test:pack`: packs every library package, installs the tarballs into a fresh temporary
// project that has nothing else from this repository, and runs examples/embed/ there with plain
// `node`. It passes when the example prints `{"ok":true,"sessions":N,"cursor":C}`.
//
// Third-party dependencies come from the npm registry. The native addons (better-sqlite3,
// zstd-napi — persistence needs both) have no reachable prebuilt binary here, and compiling them
// again costs minutes that test nothing of ours: by default their install scripts are skipped and
// the binaries `npm ci` compiled for the same versions are copied in (printed). Set
// STRAND_PACK_NATIVE=build to compile them from source as a user's install does.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { repoRoot } from './esbuild-node.mjs';
import { packLibraries } from './pack-libraries.mjs';

const NATIVE_ADDONS = ['better-sqlite3', 'zstd-napi'];
const started = performance.now();
const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)}s`;
const work = mkdtempSync(path.join(tmpdir(), 'strand-test-pack-'));
const keep = process.env.STRAND_KEEP_PACK === '1';

try {
  const tarballs = await packLibraries(path.join(work, 'tarballs'));
  console.log(`test:pack: packed ${tarballs.length} libraries (${seconds()})`);

  const project = path.join(work, 'project');
  cpSync(path.join(repoRoot, 'examples', 'embed'), project, { recursive: true });
  const manifest = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8'));
  // The same native addons the repository approves (package.json `allowScripts`).
  manifest.allowScripts = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).allowScripts;
  writeFileSync(path.join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  const reuseNative = process.env.STRAND_PACK_NATIVE !== 'build';
  execFileSync(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      ...(reuseNative ? ['--ignore-scripts'] : []),
      ...tarballs,
    ],
    {
      cwd: project,
      stdio: ['ignore', 'inherit', 'inherit'],
      // No prebuilt addon can be downloaded here: go straight to the source build.
      env: { ...process.env, npm_config_build_from_source: 'true' },
    },
  );
  if (reuseNative) for (const addon of NATIVE_ADDONS) reuseCompiledAddon(addon, project);
  console.log(`test:pack: installed the tarballs (${seconds()})`);

  const output = execFileSync(process.execPath, ['index.mjs'], { cwd: project, encoding: 'utf8' });
  const lines = output.trim().split('\n');
  const result = JSON.parse(lines.at(-1) ?? '');
  const shaped =
    lines.length === 1 &&
    result.ok === true &&
    Number.isInteger(result.sessions) &&
    result.sessions >= 1 &&
    Number.isInteger(result.cursor) &&
    result.cursor >= 1;
  if (!shaped) throw new Error(`examples/embed printed ${JSON.stringify(output)}`);
  console.log(`test:pack: ok — ${lines[0]} (${seconds()})`);
} finally {
  if (keep) console.log(`test:pack: kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

/** The dependencies with a compiled part (their `build/` folder). */
function reuseCompiledAddon(name, project) {
  const from = path.join(repoRoot, 'node_modules', name);
  const to = path.join(project, 'node_modules', name);
  if (!existsSync(to)) return; // not needed by the libraries
  const version = (dir) => JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
  if (!existsSync(path.join(from, 'build')) || version(from) !== version(to))
    throw new Error(
      `test:pack: cannot reuse the compiled ${name} (the repository has ${existsSync(from) ? version(from) : 'none'}, the install ${version(to)}); run with STRAND_PACK_NATIVE=build`,
    );
  cpSync(path.join(from, 'build'), path.join(to, 'build'), { recursive: true });
  console.log(
    `test:pack: ${name} ${version(to)}: reused the binary npm ci compiled (STRAND_PACK_NATIVE=build compiles it)`,
  );
}
