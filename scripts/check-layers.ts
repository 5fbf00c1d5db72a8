/**
 * Refuses wrong-way imports between packages and import cycles. The allowed direction follows
 * the data flow of docs/architecture.md; a package may import only packages listed for it here,
 * and browser packages may not import `node:*`. Test code (`*.test.ts`, `*.child.ts`, files under `test/` or
 * `testing/`) may also import the test floor (`@strand/test-support`, `@strand/harness-bed`,
 * `@strand/workload`, the base stack's temp fixtures); runtime code may not import
 * `@strand/test-support`, `@strand/harness-bed`, `vitest` or `fast-check` at all, so no `strand`
 * command loads a test library. `test-support`, `harness-bed` and `soak` are test code throughout. A relative import never leaves its package, and every package.json declares
 * what its files import. End-to-end tests (`*.e2e.test.ts`, and their helpers under `e2e/`) drive
 * the whole product and may import any package.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ALLOWED: Record<string, readonly string[]> = {
  session: [],
  persistence: ['session'],
  projection: ['session'],
  'projection-cache': ['session', 'projection'],
  query: ['session', 'persistence', 'projection', 'projection-cache'],
  search: ['session', 'persistence'],
  subagent: ['session', 'persistence', 'projection', 'projection-cache', 'query', 'protocol'],
  agent: ['session', 'persistence', 'projection', 'projection-cache', 'query', 'subagent'],
  postgres: ['session', 'persistence', 'projection', 'projection-cache', 'query', 'search'],
  protocol: ['session', 'projection'],
  // The MCP tools over the wire methods: the stdio command and the host's `/mcp` (through a port) use them.
  mcp: ['session', 'protocol', 'subagent'],
  // The transcript as rows, and message text as HTML: what the web draws and the HTML export renders.
  transcript: ['session', 'protocol'],
  // Session exports: pure formats over one read cut; the host reaches them through a port.
  export: ['session', 'protocol', 'transcript'],
  // The base stack: persistence + preparations + registry + cache + query + search, below agents.
  stack: ['session', 'persistence', 'projection', 'projection-cache', 'query', 'search'],
  // The wire server reaches agents, subagents and PostgreSQL through its ports only.
  host: ['session', 'persistence', 'projection', 'projection-cache', 'query', 'protocol'],
  // The composition root: the base stack plus agents, leases and the host.
  runtime: [
    'session',
    'persistence',
    'projection',
    'projection-cache',
    'query',
    'search',
    'stack',
    'subagent',
    'agent',
    'protocol',
    'postgres',
    'host',
    'export',
    // The harness-export writer (`@strand/import/harness-export`) behind the host's export port.
    'import',
  ],
  client: ['session', 'protocol'],
  web: ['session', 'projection', 'protocol', 'client', 'transcript'],
  // Reads other harnesses' folders, and writes a session into them (`harness-export`, over
  // `export`); reads Strand's own export marker (`@strand/export/marker`, pure) to link a
  // continued export.
  import: ['session', 'persistence', 'subagent', 'export'],
  cli: [
    'session',
    'persistence',
    'projection',
    'projection-cache',
    'query',
    'search',
    'subagent',
    'agent',
    'protocol',
    'host',
    'runtime',
    'stack',
    'client',
    'import',
    'export',
    'mcp',
    'postgres',
    'test-support',
    'workload',
  ],
  workload: ['session'],
  'test-support': ['session', 'persistence', 'projection', 'projection-cache', 'workload'],
  // The real harnesses as test peers: it knows their CLIs and wires, nothing of Strand.
  'harness-bed': [],
  // The soak (issue 48): the whole product under load, kills and faults, then a check of every
  // promise. Test code throughout, on top of everything; nothing imports it.
  soak: ['session', 'persistence', 'protocol', 'client', 'host', 'runtime', 'cli', 'postgres'],
};
// `session` is the log's vocabulary and the error declarations the browser side shares.
const BROWSER = new Set(['session', 'projection', 'protocol', 'client', 'transcript', 'web']);

const root = path.resolve(import.meta.dirname, '..');
const problems: string[] = [];

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) yield* sourceFiles(file);
    else if (/\.(ts|tsx)$/.test(name)) yield file;
  }
}

/** Whether `pkg` may reach `target` through the layer table (directly or through others). */
function dependsOn(pkg: string, target: string, seen = new Set<string>()): boolean {
  for (const next of ALLOWED[pkg] ?? []) {
    if (next === target) return true;
    if (!seen.has(next)) {
      seen.add(next);
      if (dependsOn(next, target, seen)) return true;
    }
  }
  return false;
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const packages = readdirSync(path.join(root, 'packages')).filter((p) =>
  statSync(path.join(root, 'packages', p)).isDirectory(),
);

/**
 * Test code may also import these: shared test tools, the workload, the base stack's temp
 * fixtures — except one built on the importing package (the stack's, from `query` or `search`).
 */
const TEST_FLOOR = new Set(['test-support', 'harness-bed', 'workload', 'stack']);
const TEST_HELPERS = new Set(['test-support', 'harness-bed']);
/** Libraries only test code may load. */
const TEST_LIBRARIES = /^(?:@strand\/test-support|@strand\/harness-bed|vitest|fast-check)(?:\/|$)/;

/** The package an import names: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageOf(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

interface Manifest {
  readonly name?: string;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly exports?: Record<string, unknown>;
}

for (const pkg of packages) {
  const allowed = ALLOWED[pkg];
  if (allowed === undefined) {
    problems.push(`packages/${pkg}: not in the layer table of scripts/check-layers.ts`);
    continue;
  }
  const pkgDir = path.join(root, 'packages', pkg);
  const manifest = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as Manifest;
  const runtimeDeps = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  const devDeps = new Set(Object.keys(manifest.devDependencies ?? {}));
  // Every entry point a package.json exports exists (a move must take its exports along).
  for (const [entry, target] of Object.entries(manifest.exports ?? {}))
    if (typeof target === 'string' && !existsSync(path.join(pkgDir, target)))
      problems.push(
        `packages/${pkg}/package.json: export ${entry} points at ${target}, which does not exist`,
      );
  const importedStrand = new Set<string>();
  /** One problem per missing dependency (the first file that imports it). */
  const undeclared = new Map<string, string>();
  const src = path.join(pkgDir, 'src');
  for (const file of sourceFiles(src)) {
    // Tests, the processes tests spawn (`*.child.ts`), the test helpers a package exports under
    // `testing/`, and test-support itself.
    const isTest =
      pkg === 'test-support' ||
      pkg === 'harness-bed' ||
      pkg === 'soak' ||
      /\.(test|child)\.tsx?$/.test(file) ||
      file.includes(`${path.sep}test${path.sep}`) ||
      file.includes(`${path.sep}testing${path.sep}`);
    // End-to-end tests drive the assembled product (a real host in front of the browser).
    const isProductTest = /\.e2e\.test\.tsx?$/.test(file) || file.includes(`${path.sep}e2e${path.sep}`);
    const text = readFileSync(file, 'utf8');
    const rel = path.relative(root, file);
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2]!;
      if (!isTest && TEST_LIBRARIES.test(spec)) {
        problems.push(`${rel}: runtime code may not import ${spec} (test code only)`);
        continue;
      }
      if (spec.startsWith('.')) {
        // A relative path may not leave its package: across a boundary, import the package by name.
        const target = path.resolve(path.dirname(file), spec);
        if (!target.startsWith(pkgDir + path.sep))
          problems.push(
            `${rel}: relative import ${spec} leaves packages/${pkg} (import the package by name)`,
          );
        continue;
      }
      if (spec.startsWith('node:')) {
        if (BROWSER.has(pkg) && !isTest)
          problems.push(`${rel}: ${pkg} must run in a browser and may not import ${spec}`);
        continue;
      }
      if (spec.startsWith('virtual:') || spec.startsWith('/')) continue;
      const dep = packageOf(spec);
      if (spec.startsWith('@strand/')) {
        const target = spec.slice('@strand/'.length).split('/')[0]!;
        if (target === pkg) {
          problems.push(`${rel}: imports its own package by name (${spec})`);
          continue;
        }
        importedStrand.add(dep);
        if (!allowed.includes(target) && !(isTest && TEST_FLOOR.has(target)) && !isProductTest)
          problems.push(`${rel}: ${pkg} may not import ${spec} (wrong-way or undeclared layer)`);
        else if (
          !allowed.includes(target) &&
          !isProductTest &&
          !TEST_HELPERS.has(target) &&
          dependsOn(target, pkg)
        )
          // A product package's fixture built on this package would run back up (the test
          // helpers are test code throughout, below everything they test).
          problems.push(`${rel}: ${pkg} may not import ${spec}: ${target} is built on ${pkg} (a loop)`);
      }
      // Every package declares what it imports: runtime code in dependencies, test code in either.
      if (!runtimeDeps.has(dep) && !(isTest && devDeps.has(dep)) && !undeclared.has(dep))
        undeclared.set(
          dep,
          `${rel}: imports ${dep}, which packages/${pkg}/package.json does not declare${isTest ? '' : ' in dependencies'}`,
        );
    }
  }
  problems.push(...undeclared.values());
  // And declares no workspace package it does not import (the graph npm sees is the real one).
  for (const dep of [...runtimeDeps, ...devDeps])
    if (dep.startsWith('@strand/') && !importedStrand.has(dep))
      problems.push(`packages/${pkg}/package.json: declares ${dep}, which no file of ${pkg} imports`);
}

/**
 * Inside the web package, its feature folders (under `packages/web/src/app/`) import only folders
 * below them in this order, as the packages do (packages/web/README.md "Folders"): `shared` is the
 * floor (connection, hooks, addresses, formats), `transcript` renders events, and each feature
 * above may use those beneath it. `App.tsx` at the top composes them all.
 */
const WEB_FOLDERS = ['shared', 'transcript', 'subagents', 'usage', 'search', 'session-list', 'session-view'];
const webApp = path.join(root, 'packages', 'web', 'src', 'app');

/** The feature folder of a file under `packages/web/src/app/`, `''` for the root (App.tsx). */
function webFolder(file: string): string | undefined {
  const rel = path.relative(webApp, file);
  if (rel.startsWith('..')) return undefined;
  const parts = rel.split(path.sep);
  return parts.length === 1 ? '' : parts[0];
}

for (const file of sourceFiles(webApp)) {
  const from = webFolder(file)!;
  const rel = path.relative(root, file);
  if (from !== '' && !WEB_FOLDERS.includes(from)) {
    problems.push(`${rel}: packages/web/src/app/${from} is not in WEB_FOLDERS of scripts/check-layers.ts`);
    continue;
  }
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2]!;
    if (!spec.startsWith('.')) continue;
    const to = webFolder(path.resolve(path.dirname(file), spec));
    if (to === undefined || to === from) continue;
    // The root (App.tsx) may import every folder; no folder imports the root, and none imports upward.
    if (from !== '' && (to === '' || WEB_FOLDERS.indexOf(to) > WEB_FOLDERS.indexOf(from)))
      problems.push(
        `${rel}: web folder ${from} may not import ${to === '' ? 'the app root' : to} (${spec}); order: ${WEB_FOLDERS.join(' < ')}`,
      );
  }
}

// The table itself must be acyclic, so allowed imports can never form a cycle.
const visiting = new Set<string>();
const done = new Set<string>();
function visit(pkg: string, trail: string[]): void {
  if (done.has(pkg)) return;
  if (visiting.has(pkg)) {
    problems.push(`layer cycle: ${[...trail, pkg].join(' → ')}`);
    return;
  }
  visiting.add(pkg);
  for (const dep of ALLOWED[pkg] ?? []) visit(dep, [...trail, pkg]);
  visiting.delete(pkg);
  done.add(pkg);
}
for (const pkg of Object.keys(ALLOWED)) visit(pkg, []);

if (problems.length > 0) {
  console.error(`check-layers: ${problems.length} problem(s)\n` + problems.map((p) => `  ${p}`).join('\n'));
  process.exit(1);
}
console.log(`check-layers: ${packages.length} packages, imports follow the data flow`);
