/**
 * Refuses wrong-way imports between packages and import cycles. The allowed direction follows
 * the data flow of docs/architecture.md; a package may import only packages listed for it here,
 * and browser packages may not import `node:*`. Test code (`*.test.ts`, files under `test/` or
 * `testing/`) may also import `@strand/test-support` and `@strand/workload`; runtime code may not
 * import `@strand/test-support`, `vitest` or `fast-check` at all, so no `strand` command loads a
 * test library. `test-support` itself is test code throughout.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ALLOWED: Record<string, readonly string[]> = {
  session: [],
  persistence: ['session'],
  projection: ['session'],
  'projection-cache': ['session', 'projection'],
  query: ['session', 'persistence', 'projection', 'projection-cache'],
  subagent: ['session', 'persistence', 'projection', 'projection-cache', 'query', 'protocol'],
  agent: ['session', 'persistence', 'projection', 'projection-cache', 'query', 'subagent'],
  postgres: ['session', 'persistence', 'projection', 'projection-cache', 'query'],
  protocol: ['projection'],
  host: [
    'session',
    'persistence',
    'projection',
    'projection-cache',
    'query',
    'subagent',
    'agent',
    'protocol',
    'postgres',
  ],
  client: ['protocol'],
  web: ['protocol', 'client'],
  import: ['session', 'persistence', 'subagent'],
  cli: [
    'session',
    'persistence',
    'projection',
    'projection-cache',
    'query',
    'subagent',
    'agent',
    'protocol',
    'host',
    'client',
    'import',
    'postgres',
    'workload',
  ],
  workload: ['session'],
  'test-support': ['session', 'persistence', 'projection', 'projection-cache', 'workload'],
};
/** Packages that test code may import whatever its package's layer. */
const TEST_ONLY = new Set(['test-support', 'workload']);
/** Modules only test code may import (the test runner and the property-testing library). */
const TEST_LIBRARIES = /^(?:@strand\/test-support|vitest|fast-check)(?:\/|$)/;
const BROWSER = new Set(['projection', 'protocol', 'client', 'web']);

const root = path.resolve(import.meta.dirname, '..');
const problems: string[] = [];

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) yield* sourceFiles(file);
    else if (/\.(ts|tsx)$/.test(name)) yield file;
  }
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const packages = readdirSync(path.join(root, 'packages')).filter((p) =>
  statSync(path.join(root, 'packages', p)).isDirectory(),
);

for (const pkg of packages) {
  const allowed = ALLOWED[pkg];
  if (allowed === undefined) {
    problems.push(`packages/${pkg}: not in the layer table of scripts/check-layers.ts`);
    continue;
  }
  const src = path.join(root, 'packages', pkg, 'src');
  for (const file of sourceFiles(src)) {
    // Tests, the test helpers a package exports under `testing/`, and test-support itself.
    const isTest =
      pkg === 'test-support' ||
      /\.test\.tsx?$/.test(file) ||
      file.includes(`${path.sep}test${path.sep}`) ||
      file.includes(`${path.sep}testing${path.sep}`);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2]!;
      const rel = path.relative(root, file);
      if (!isTest && TEST_LIBRARIES.test(spec)) {
        problems.push(`${rel}: runtime code may not import ${spec} (test code only)`);
        continue;
      }
      if (spec.startsWith('@strand/')) {
        const target = spec.slice('@strand/'.length).split('/')[0]!;
        if (target === pkg) problems.push(`${rel}: imports its own package by name (${spec})`);
        else if (!allowed.includes(target) && !(isTest && TEST_ONLY.has(target))) {
          problems.push(`${rel}: ${pkg} may not import ${spec} (wrong-way or undeclared layer)`);
        }
      } else if (spec.startsWith('node:') && BROWSER.has(pkg) && !isTest) {
        problems.push(`${rel}: ${pkg} must run in a browser and may not import ${spec}`);
      }
    }
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
