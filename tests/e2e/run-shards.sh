#!/usr/bin/env bash
# The browser tests in E2E_SHARDS processes side by side (2 unless set), each with its own servers
# and databases (tests/e2e/server.ts): the files wait on the browser and the servers far more than on
# the CPU, and one after another they took 32 of CI's 43 minutes (2026-11-27). With arguments (a
# file, a filter) it is one plain vitest run.
set -uo pipefail
cd "$(dirname "$0")/../.."
config=web/vitest.e2e.config.ts
if [ $# -gt 0 ]; then exec npx vitest run --config "$config" "$@"; fi
shards=${E2E_SHARDS:-2}
mkdir -p var
# The client is built once for every shard (tests/e2e/server.ts takes E2E_WEB_DIST), as
# `npm run build` makes it (NODE_ENV=production: React's production build, what ships).
dist=$(mktemp -d "${TMPDIR:-/tmp}/coldchain-e2e-dist-XXXXXX")
trap 'rm -rf "$dist"' EXIT
NODE_ENV=production npx vite build --config web/vite.config.ts --outDir "$dist" --emptyOutDir --logLevel warn || exit 1
export E2E_WEB_DIST=$dist
pids=()
for index in $(seq 1 "$shards"); do
  npx vitest run --config "$config" --shard="$index/$shards" > "var/test-e2e-$index.log" 2>&1 &
  pids+=($!)
done
failed=0
for index in $(seq 1 "$shards"); do
  wait "${pids[$((index - 1))]}" || failed=1
  echo "--- browser tests, shard $index of $shards ---"
  cat "var/test-e2e-$index.log"
done
exit $failed
