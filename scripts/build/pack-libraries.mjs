// Builds every library package (scripts/build/libraries.mjs) to JavaScript with type declarations
// and packs each into a tarball another project can install:
//
//   node scripts/build/pack-libraries.mjs [out-folder]   (default: artifacts/pack)
//
// The repository itself never uses the build: each package.json's `exports` point at ./src/*.ts,
// so tests, typecheck and tsx run the sources. Here each package is staged in a temporary folder
// with a rewritten package.json — `exports` → `{ types, import }` into dist/, no `private`, no
// devDependencies, the shared version — holding only dist/ and README.md, and packed there.
//
// - JavaScript: esbuild (the CLI bundle's settings, scripts/build/esbuild-node.mjs), one build per
//   package with its export entries, code splitting so entries share modules (one class, one
//   identity), every bare import external. A bare import the package does not declare fails the
//   build; one it declares only as a devDependency (vitest, fast-check in `./testing`) becomes an
//   optional peer dependency.
// - Declarations: one `tsc --emitDeclarationOnly` over every library's entries; dist/ mirrors src/.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { nodeEsm, repoRoot, WORKER_ENTRIES } from './esbuild-node.mjs';
import { LIBRARY_PACKAGES } from './libraries.mjs';

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const packageDir = (name) => path.join(repoRoot, 'packages', name);

/** `./src/testing/index.ts` → `testing/index` (the entry's path under src/ and dist/). */
function entryName(target) {
  const match = /^\.\/src\/(.+)\.ts$/.exec(target);
  if (match === null) throw new Error(`export target ${target} is not a TypeScript file under ./src`);
  return match[1];
}

/** The shared version (root package.json); every library must carry it. */
export function libraryVersion() {
  const version = readJson(path.join(repoRoot, 'package.json')).version;
  for (const name of LIBRARY_PACKAGES) {
    const manifest = readJson(path.join(packageDir(name), 'package.json'));
    if (manifest.version !== version) {
      throw new Error(
        `${manifest.name} is at ${manifest.version}, the repository at ${version}: one version for all`,
      );
    }
    for (const [dep, range] of Object.entries(manifest.dependencies ?? {})) {
      if (dep.startsWith('@strand/') && range !== version) {
        throw new Error(`${manifest.name} depends on ${dep}@${range}, not the shared version ${version}`);
      }
    }
  }
  return version;
}

/** The package name of a bare import: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

async function buildJavaScript(name, manifest, dist) {
  const entryPoints = {};
  for (const target of Object.values(manifest.exports)) {
    entryPoints[entryName(target)] = path.join(packageDir(name), target);
  }
  const result = await build({
    ...nodeEsm,
    entryPoints,
    outdir: dist,
    splitting: true,
    packages: 'external',
    metafile: true,
  });
  const workers = Object.entries(WORKER_ENTRIES[name] ?? {});
  const workerResults = await Promise.all(
    workers.map(([file, entry]) =>
      build({
        ...nodeEsm,
        entryPoints: [entry],
        outfile: path.join(dist, file),
        packages: 'external',
        metafile: true,
      }),
    ),
  );
  const imported = new Set();
  for (const { metafile } of [result, ...workerResults]) {
    for (const output of Object.values(metafile.outputs)) {
      for (const { path: specifier, external } of output.imports) {
        if (external && !isBuiltin(specifier) && !specifier.startsWith('.'))
          imported.add(packageOf(specifier));
      }
    }
  }
  return imported;
}

function emitDeclarations(entries, outDir) {
  const config = path.join(outDir, 'tsconfig.json');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(
    config,
    JSON.stringify({
      extends: path.join(repoRoot, 'tsconfig.base.json'),
      compilerOptions: {
        noEmit: false,
        declaration: true,
        emitDeclarationOnly: true,
        rootDir: path.join(repoRoot, 'packages'),
        outDir: path.join(outDir, 'out'),
        // The repository's program has these too (the client runs in browsers).
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        types: ['node'],
        typeRoots: [path.join(repoRoot, 'node_modules', '@types')],
      },
      files: entries,
    }),
  );
  execFileSync(
    process.execPath,
    [path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config],
    {
      stdio: 'inherit',
    },
  );
  return path.join(outDir, 'out');
}

/** Packages the declarations in `dist` import (`from 'x'`, `import('x')`), without builtins. */
function declarationImports(dist) {
  const found = new Set();
  const files = readdirSync(dist, { recursive: true }).filter((file) => file.endsWith('.d.ts'));
  for (const file of files) {
    for (const [, specifier] of readFileSync(path.join(dist, file), 'utf8').matchAll(
      /(?:from |import\()'([^'.][^']*)'/g,
    )) {
      if (!isBuiltin(specifier)) found.add(packageOf(specifier));
    }
  }
  return found;
}

/**
 * A dependency whose types come from DefinitelyTyped (`better-sqlite3`) and that the declarations
 * name: its `@types/*` package, at the repository's version, is a dependency too — a consumer's
 * TypeScript reads it.
 */
function typesPackagesFor(declared, root) {
  const extra = {};
  for (const dep of declared) {
    const typesName = `@types/${dep.replace(/^@([^/]+)\//, '$1__')}`;
    const version = root.devDependencies?.[typesName] ?? root.dependencies?.[typesName];
    if (version !== undefined) extra[typesName] = version;
  }
  return extra;
}

function stagedManifest(manifest, version, imported, typeImports) {
  const exports = {};
  for (const [key, target] of Object.entries(manifest.exports)) {
    const entry = entryName(target);
    exports[key] = { types: `./dist/${entry}.d.ts`, import: `./dist/${entry}.js` };
  }
  const root = readJson(path.join(repoRoot, 'package.json'));
  const dependencies = { ...manifest.dependencies };
  for (const dep of typeImports) {
    if (
      !dep.startsWith('@types/') &&
      !(dep in dependencies) &&
      manifest.devDependencies?.[dep] === undefined
    ) {
      throw new Error(`${manifest.name}'s declarations import ${dep} but it does not declare it`);
    }
  }
  Object.assign(
    dependencies,
    typesPackagesFor(
      [...typeImports].filter((dep) => dep in dependencies),
      root,
    ),
  );
  const peerDependencies = {};
  for (const dep of [...imported].sort()) {
    if (dep in dependencies || dep === manifest.name) continue;
    const range = manifest.devDependencies?.[dep];
    if (range === undefined) throw new Error(`${manifest.name} imports ${dep} but does not declare it`);
    peerDependencies[dep] = range;
  }
  return {
    name: manifest.name,
    version,
    description: manifest.description ?? root.description,
    type: 'module',
    engines: root.engines,
    exports,
    ...(Object.keys(dependencies).length === 0 ? {} : { dependencies }),
    ...(Object.keys(peerDependencies).length === 0
      ? {}
      : {
          peerDependencies,
          // Only the `./testing` suites import them; the main entry never does.
          peerDependenciesMeta: Object.fromEntries(
            Object.keys(peerDependencies).map((d) => [d, { optional: true }]),
          ),
        }),
  };
}

/** Builds and packs every library into `outDir`; returns the tarballs' paths in list order. */
export async function packLibraries(outDir) {
  const version = libraryVersion();
  const work = mkdtempSync(path.join(tmpdir(), 'strand-pack-build-'));
  try {
    const manifests = Object.fromEntries(
      LIBRARY_PACKAGES.map((name) => [name, readJson(path.join(packageDir(name), 'package.json'))]),
    );
    const entries = LIBRARY_PACKAGES.flatMap((name) =>
      Object.values(manifests[name].exports).map((target) => path.join(packageDir(name), target)),
    );
    const types = emitDeclarations(entries, path.join(work, 'types'));
    mkdirSync(outDir, { recursive: true });
    const tarballs = [];
    for (const name of LIBRARY_PACKAGES) {
      const manifest = manifests[name];
      const stage = path.join(work, 'stage', name);
      const dist = path.join(stage, 'dist');
      const imported = await buildJavaScript(name, manifest, dist);
      cpSync(path.join(types, name, 'src'), dist, { recursive: true });
      for (const file of ['README.md', 'LICENSE']) {
        const from = path.join(packageDir(name), file);
        if (existsSync(from)) cpSync(from, path.join(stage, file));
      }
      writeFileSync(
        path.join(stage, 'package.json'),
        `${JSON.stringify(stagedManifest(manifest, version, imported, declarationImports(dist)), null, 2)}\n`,
      );
      const packed = JSON.parse(
        execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', outDir], {
          cwd: stage,
          encoding: 'utf8',
        }),
      );
      tarballs.push(path.join(outDir, packed[0].filename));
    }
    return tarballs;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const outDir = path.resolve(process.argv[2] ?? path.join(repoRoot, 'artifacts', 'pack'));
  for (const tarball of await packLibraries(outDir)) console.log(tarball);
}
