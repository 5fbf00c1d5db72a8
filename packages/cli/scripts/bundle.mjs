// Bundles the `strand` CLI to plain JavaScript in packages/cli/dist, so the command starts without
// a TypeScript loader (run by the root `prepare` step on every install, and by `npm run build:cli`).
//
// - The @strand/* workspace packages are TypeScript sources: they are bundled. Every other package
//   stays an import of node_modules — native addons (zstd-napi, better-sqlite3, fs-native-extensions)
//   must, and loading a library from node_modules costs no more than loading it from the bundle.
// - Code splitting turns each command's dynamic `import()` into its own chunk, so `strand --help`
//   loads none of them and `strand list` only what a read needs.
// - The two worker threads are bundled beside the chunks under the names their launchers resolve
//   relative to `import.meta.url` (persistence's scan worker, import's lanes).
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeEsm, WORKER_ENTRIES } from '../../../scripts/build/esbuild-node.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const packages = path.resolve(root, '..');
const outdir = path.join(root, 'dist');

/**
 * Bare imports other than the workspace's own packages stay external, as paths relative to the
 * output folder (every chunk lands in it): a dependency may be installed under the package that
 * uses it (packages/host/node_modules/cookie), where a bare name from dist would not find it.
 */
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
      return { path: `./${path.relative(outdir, found.path)}`, external: true };
    });
  },
};

// The settings the library packages' build uses too (scripts/build/esbuild-node.mjs).
const common = { ...nodeEsm, plugins: [externalDependencies] };

rmSync(outdir, { recursive: true, force: true });
// One flat folder: a worker launcher resolves its entry beside whichever chunk it landed in.
await Promise.all([
  build({ ...common, entryPoints: { main: path.join(root, 'src', 'main.ts') }, outdir, splitting: true }),
  build({
    ...common,
    entryPoints: { 'worker-entry': WORKER_ENTRIES.persistence['worker-entry.mjs'] },
    outdir,
    outExtension: { '.js': '.mjs' },
  }),
  build({
    ...common,
    entryPoints: { 'import-worker': path.join(packages, 'import', 'src', 'run', 'import-worker.ts') },
    outdir,
  }),
]);
