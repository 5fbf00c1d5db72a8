// `npm run test:pack`: Strand as another project and a person install it, from the packed tarballs
// alone, each into a fresh temporary folder that has nothing else from this repository:
//
// - the libraries: every library package packed, installed into a fresh project, examples/embed/
//   run there with plain `node` (it prints `{"ok":true,"sessions":N,"cursor":C}`);
// - the tool: the @strand/cli tarball (`npm run pack:cli`) installed globally into a fresh prefix,
//   then, from an empty folder, `strand demo --data <tmp>`, `strand list --json` over it,
//   `strand import` of a committed Gemini folder (listed with titles), and `strand serve` answering
//   its web page and the page's script.
//
// The last line is one JSON object: the example's `ok`, `sessions`, `cursor`, then `cliListed` (the
// rows `strand list --json` printed), `cliImported` (sessions `strand import` wrote) and
// `cliServed` (true).
//
// Third-party dependencies come from the npm registry. The native addons (better-sqlite3,
// zstd-napi) have no reachable prebuilt binary here, and compiling them again costs minutes that
// test nothing of ours: by default their install scripts are skipped and the binaries `npm ci`
// compiled for the same versions are copied in (printed). Set STRAND_PACK_NATIVE=build to compile
// them from source as a user's install does.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { repoRoot } from './esbuild-node.mjs';
import { packCli } from './pack-cli.mjs';
import { packLibraries } from './pack-libraries.mjs';

const NATIVE_ADDONS = ['better-sqlite3', 'zstd-napi'];
const started = performance.now();
const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)}s`;
const work = mkdtempSync(path.join(tmpdir(), 'strand-test-pack-'));
const keep = process.env.STRAND_KEEP_PACK === '1';
const reuseNative = process.env.STRAND_PACK_NATIVE !== 'build';
// The repository's approvals for install scripts (package.json `allowScripts`).
const allowScripts = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).allowScripts;
// No prebuilt addon can be downloaded here: go straight to the source build.
const installEnv = { ...process.env, npm_config_build_from_source: 'true' };
const installFlags = [
  '--no-audit',
  '--no-fund',
  '--loglevel=error',
  ...(reuseNative ? ['--ignore-scripts'] : []),
];
// A global install has no project manifest to approve install scripts: npm 11 takes them on the
// command line (and refuses the flag in a project install, where package.json's `allowScripts` does).
const globalApprovals = reuseNative ? [] : [`--allow-scripts=${NATIVE_ADDONS.join(',')}`];

try {
  const tarballs = await packLibraries(path.join(work, 'tarballs'));
  const cliTarball = await packCli(path.join(work, 'tarballs'));
  console.log(`test:pack: packed ${tarballs.length} libraries and the CLI (${seconds()})`);

  const embedded = installLibrariesAndRunExample(tarballs);
  console.log(`test:pack: libraries ok — ${JSON.stringify(embedded)} (${seconds()})`);

  const cli = await installCliAndRunIt(cliTarball);
  console.log(`test:pack: CLI ok — listed ${cli.cliListed} sessions, served its web page (${seconds()})`);

  console.log(JSON.stringify({ ...embedded, ...cli }));
} finally {
  if (keep) console.log(`test:pack: kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

/** The libraries into a fresh project; examples/embed run there. Returns its one JSON line. */
function installLibrariesAndRunExample(tarballs) {
  const project = path.join(work, 'project');
  cpSync(path.join(repoRoot, 'examples', 'embed'), project, { recursive: true });
  const manifest = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8'));
  manifest.allowScripts = allowScripts;
  writeFileSync(path.join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  execFileSync('npm', ['install', ...installFlags, ...tarballs], {
    cwd: project,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: installEnv,
  });
  if (reuseNative)
    for (const addon of NATIVE_ADDONS) reuseCompiledAddon(addon, path.join(project, 'node_modules'));

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
  return { ok: result.ok, sessions: result.sessions, cursor: result.cursor };
}

/**
 * `npm install -g` of the CLI tarball into a fresh prefix, then the installed `strand` run from an
 * empty folder as a person would: demo, list, serve.
 */
async function installCliAndRunIt(tarball) {
  const prefix = path.join(work, 'prefix');
  const home = path.join(work, 'home'); // an empty folder: the command's cwd
  mkdirSync(home);
  execFileSync(
    'npm',
    ['install', '--global', '--prefix', prefix, ...installFlags, ...globalApprovals, tarball],
    {
      cwd: home,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: installEnv,
    },
  );
  const installed = path.join(prefix, 'lib', 'node_modules', '@strand', 'cli');
  if (reuseNative)
    for (const addon of NATIVE_ADDONS) reuseCompiledAddon(addon, path.join(installed, 'node_modules'));
  console.log(`test:pack: installed the CLI into ${prefix} (${seconds()})`);

  // The bin npm linked, on a PATH whose `node` is this one (its shebang is `env node`).
  const strand = path.join(prefix, 'bin', 'strand');
  const env = {
    ...process.env,
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
  };
  const run = (...args) => execFileSync(strand, args, { cwd: home, env, encoding: 'utf8' });

  const data = path.join(work, 'cli-data');
  console.log(`test:pack: ${run('demo', '--data', data).trim()}`);
  const listed = JSON.parse(run('list', '--json', '--data', data));
  const cliListed = listed.sessions?.length ?? 0;
  if (cliListed < 1)
    throw new Error(`strand list --json listed no session: ${JSON.stringify(listed).slice(0, 300)}`);

  const cliImported = importWithTitles(run);
  await serveAndFetchWebPage(strand, data, env, home);
  return { cliListed, cliImported, cliServed: true };
}

/**
 * `strand import` of a committed Gemini folder, then `strand list --json` over what it wrote: the
 * installed bundle's import lane loads its cache-row digest module by URL (`import-cache-digest.js`
 * beside the chunks), so every imported session lists with its title at once. Returns how many.
 */
function importWithTitles(run) {
  const source = path.join(work, 'gemini-source');
  cpSync(path.join(repoRoot, 'packages', 'import', 'src', 'gemini', 'fixtures', 'delegate'), source, {
    recursive: true,
  });
  const data = path.join(work, 'import-data');
  const summary = JSON.parse(run('import', 'gemini', source, '--data', data, '--json'));
  if (summary.imported < 1 || summary.failed !== 0)
    throw new Error(`strand import gemini imported nothing: ${JSON.stringify(summary).slice(0, 300)}`);
  const listed = JSON.parse(run('list', '--json', '--data', data)).sessions ?? [];
  const untitled = listed.filter((row) => typeof row.hints?.values?.title !== 'string');
  if (listed.length !== summary.imported || untitled.length > 0)
    throw new Error(
      `strand list after the import: ${listed.length} rows, ${untitled.length} without a title`,
    );
  console.log(
    `test:pack: imported ${summary.imported} Gemini sessions, each listed with its title (${seconds()})`,
  );
  return summary.imported;
}

/** `strand serve` on a free port: its web page and the page's script answer; SIGINT ends it with 0. */
async function serveAndFetchWebPage(strand, data, env, cwd) {
  const child = spawn(strand, ['serve', '--data', data, '--port', '0', '--json'], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  try {
    const firstLine = await Promise.race([
      new Promise((resolve) => createInterface({ input: child.stdout }).once('line', resolve)),
      exited.then(({ code, signal }) => {
        throw new Error(`strand serve exited before it listened (code ${code}, signal ${signal})`);
      }),
    ]);
    const { url } = JSON.parse(firstLine);
    const page = await fetch(url);
    const html = await page.text();
    const script = /<script type="module"[^>]* src="([^"]+)"/.exec(html)?.[1];
    if (!page.ok || script === undefined)
      throw new Error(`strand serve answered ${page.status} without the web page: ${html.slice(0, 200)}`);
    const asset = await fetch(new URL(script, url));
    const body = await asset.text();
    if (!asset.ok || !/javascript/.test(asset.headers.get('content-type') ?? '') || body.length < 1000)
      throw new Error(`strand serve answered ${asset.status} for the page's script ${script}`);
  } finally {
    child.kill('SIGINT');
  }
  const { code, signal } = await exited;
  if (code !== 0) throw new Error(`strand serve ended with code ${code} (signal ${signal}) on SIGINT`);
}

/** Copies the binary `npm ci` compiled for this version of an addon into an install's node_modules. */
function reuseCompiledAddon(name, nodeModules) {
  const from = path.join(repoRoot, 'node_modules', name);
  const to = path.join(nodeModules, name);
  if (!existsSync(to)) return; // not a dependency of this install
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
