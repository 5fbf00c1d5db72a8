// Builds the `strand` tool as an installable package and packs it:
//
//   node scripts/build/pack-cli.mjs [out-folder]   (default: artifacts/pack; `npm run pack:cli`)
//
// The package @strand/cli (the shared version) holds the CLI bundled with its workspace packages
// (packages/cli/scripts/bundle-cli.mjs, `package` layout: every other import stays a bare name),
// the built web UI under web/ (the host serves it from there), a bin that runs the bundle, and a
// package.json whose dependencies are exactly the bundle's bare imports, pinned to the versions
// this checkout resolves. Native addons among them build from source where no prebuilt binary can
// be fetched; their install scripts are approved in `allowScripts` (npm 11) as the repository's.
// The last line printed is the tarball's path.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleCli } from '../../packages/cli/scripts/bundle-cli.mjs';
import { repoRoot } from './esbuild-node.mjs';
import { libraryVersion } from './pack-libraries.mjs';

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** Stages and packs @strand/cli into `outDir`; returns the tarball's path. */
export async function packCli(outDir) {
  const version = libraryVersion();
  const root = readJson(path.join(repoRoot, 'package.json'));
  const stage = mkdtempSync(path.join(tmpdir(), 'strand-pack-cli-'));
  try {
    const dependencies = await bundleCli({ outdir: path.join(stage, 'dist'), layout: 'package' });
    const web = path.join(repoRoot, 'packages', 'web', 'dist');
    if (!existsSync(path.join(web, 'index.html')))
      execFileSync('npm', ['run', '-s', 'build:web'], { cwd: repoRoot, stdio: 'inherit' });
    cpSync(web, path.join(stage, 'web'), { recursive: true });
    mkdirSync(path.join(stage, 'bin'));
    writeFileSync(
      path.join(stage, 'bin', 'strand.js'),
      "#!/usr/bin/env node\n// The bundled CLI (dist/), in this process.\nimport '../dist/main.js';\n",
      { mode: 0o755 },
    );
    cpSync(path.join(repoRoot, 'packages', 'cli', 'PACKAGE.md'), path.join(stage, 'README.md'));
    const manifest = {
      name: '@strand/cli',
      version,
      description:
        'strand: the session layer for AI agent harnesses — serve, list, follow, import, mcp, acp.',
      type: 'module',
      bin: { strand: 'bin/strand.js' },
      files: ['bin', 'dist', 'web', 'README.md'],
      engines: root.engines,
      dependencies: Object.fromEntries(dependencies),
      allowScripts: Object.fromEntries(
        Object.entries(root.allowScripts ?? {}).filter(([name]) => dependencies.has(name)),
      ),
      license: root.license ?? 'UNLICENSED',
    };
    writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    mkdirSync(outDir, { recursive: true });
    const packed = execFileSync('npm', ['pack', '--json', '--pack-destination', path.resolve(outDir)], {
      cwd: stage,
      encoding: 'utf8',
    });
    return path.join(path.resolve(outDir), JSON.parse(packed)[0].filename);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const tarball = await packCli(process.argv[2] ?? path.join(repoRoot, 'artifacts', 'pack'));
  console.log(tarball);
}
