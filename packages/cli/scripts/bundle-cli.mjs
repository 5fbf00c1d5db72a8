// The `strand` CLI bundled to plain JavaScript, in one of two layouts:
//
// - `repository` (packages/cli/dist, `npm run build:cli`, the root `prepare` step): every package
//   that is not one of the workspace's own stays an import of this checkout's node_modules, as a
//   path relative to the output folder — a dependency may be installed under the package that uses
//   it (packages/host/node_modules/cookie), where a bare name from dist would not find it.
// - `package` (`npm run pack:cli`, the installable @strand/cli): those imports stay bare names,
//   resolved from the installed package's own dependencies; the build returns them with the version
//   this checkout resolves, for its package.json.
//
// In both, the @strand/* workspace packages (TypeScript sources) are bundled; native addons
// (zstd-napi, better-sqlite3, fs-native-extensions) must stay external, and loading a library from
// node_modules costs no more than from the bundle. Code splitting turns each command's dynamic
// `import()` into its own chunk, so `strand --help` loads none of them. The two worker threads are
// bundled beside the chunks under the names their launchers resolve relative to `import.meta.url`
// (import's lane and its cache-row digest as entries of the main split build: shared chunks).
import { build } from 'esbuild';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeEsm, WORKER_ENTRIES } from '../../../scripts/build/esbuild-node.mjs';

const cliRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const packages = path.resolve(cliRoot, '..');

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The version of the installed package a resolved file belongs to. */
function versionOf(name, file) {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const parsed = JSON.parse(readFileSync(manifest, 'utf8'));
    if (parsed.name === name && typeof parsed.version === 'string') return parsed.version;
  }
  throw new Error(`bundle: cannot find the version of ${name} (resolved to ${file})`);
}

/**
 * Builds into `outdir` (emptied first). Returns the bare dependencies the bundle imports, each with
 * the version it resolved to (`package` layout; two different versions of one package fail).
 * `entries` adds entry points to the split build (name → source file): `bench:import` measures the
 * import as this bundle ships it through an entry of its own.
 */
export async function bundleCli({ outdir, layout, entries = {} }) {
  const dependencies = new Map();
  const externalDependencies = {
    name: 'external-dependencies',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === 'resolving' || args.path.startsWith('@strand/')) return undefined;
        if (isBuiltin(args.path)) return { path: args.path, external: true };
        const found = await b.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: 'resolving',
        });
        if (found.errors.length > 0) return { errors: found.errors };
        if (layout === 'repository')
          return { path: `./${path.relative(outdir, found.path)}`, external: true };
        const name = packageOf(args.path);
        const version = versionOf(name, found.path);
        const seen = dependencies.get(name);
        if (seen !== undefined && seen !== version)
          return {
            errors: [{ text: `${name} resolves to both ${seen} and ${version}: one version for the CLI` }],
          };
        dependencies.set(name, version);
        return { path: args.path, external: true };
      });
    },
  };
  // The settings the library packages' build uses too (scripts/build/esbuild-node.mjs).
  const common = { ...nodeEsm, plugins: [externalDependencies] };
  rmSync(outdir, { recursive: true, force: true });
  // One flat folder: a worker launcher resolves its entry beside whichever chunk it landed in.
  await Promise.all([
    // The import lanes' two modules are entries of the same split build: a worker thread loading
    // both shares their chunks (one copy of the session package, one registry) with no duplicates.
    build({
      ...common,
      entryPoints: {
        main: path.join(cliRoot, 'src', 'main.ts'),
        'import-worker': path.join(packages, 'import', 'src', 'run', 'import-worker.ts'),
        'import-cache-digest': path.join(cliRoot, 'src', 'commands', 'import-cache-digest.ts'),
        ...entries,
      },
      outdir,
      splitting: true,
    }),
    build({
      ...common,
      entryPoints: { 'worker-entry': WORKER_ENTRIES.persistence['worker-entry.mjs'] },
      outdir,
      outExtension: { '.js': '.mjs' },
    }),
  ]);
  return new Map([...dependencies].sort(([a], [b]) => a.localeCompare(b)));
}
