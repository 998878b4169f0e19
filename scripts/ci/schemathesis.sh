#!/usr/bin/env bash
# schemathesis (PyPI, pinned) against /openapi.json of a running server, with a key: every check, a bounded number
# of examples per operation. Passes only with zero server errors and zero response-schema violations.
# Every check runs except positive_data_acceptance ("schema-valid request rejected"): the parameters carry
# constraints OpenAPI 3.1 cannot state (exactly one of drug, service or code; denial_basis needs denied=true; a FHIR
# body must be valid R4, not only an object with resourceType), so a schema-valid request can rightly be a 400.
# Measured with it on (seed 13, 10 examples): its 13 findings were all such 400s; no 5xx, no schema violation.
#   scripts/ci/schemathesis.sh            install into .cache/ci (idempotent), start the service, fuzz, stop it
# Needs a build (npm run build) and python3.
set -euo pipefail
SCHEMATHESIS_VERSION="4.32.5"
MAX_EXAMPLES="${SCHEMATHESIS_MAX_EXAMPLES:-25}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
CACHE="$ROOT/.cache/ci"
VENV="$CACHE/schemathesis-venv"

installed=$("$VENV/bin/pip" show schemathesis 2>/dev/null || true)
if [ ! -x "$VENV/bin/st" ] || [[ "$installed" != *"Version: $SCHEMATHESIS_VERSION"* ]]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi
"$VENV/bin/st" --version

cd "$ROOT"
DATA=$(mktemp -d)
LOG="$CACHE/schemathesis-server.log"
REPORTS="$CACHE/schemathesis-report"
rm -rf "$REPORTS"
# The sample corpus is served (SERVE_SAMPLE_RULES=true) so keyed lookups reach 2xx answers with realistic values.
export SERVE_SAMPLE_RULES=true PRAUTH_DATA_DIR="$DATA" PORT=0 HOST=127.0.0.1 LOG_LEVEL=warn RATE_LIMITS="lookup=1000000,compare=1000000,compare_payers=1000000,action_plan=1000000,fhir=1000000,cds=1000000,demo_issue=1000000,demo_session=1000000,auth_failure=1000000,notify_address=1000000,notify_contact=1000000"
unset MONGODB_URI
# newkey ARGS...: prints "<key> <record id>"
newkey() { node bin/prauth.mjs keys create "$@" --json | node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const j=JSON.parse(s);console.log(j.key+' '+j.record.id)})"; }
read -r KEY ST_KEY_ID < <(newkey --name schemathesis --compare)
read -r ADMIN_KEY _ < <(newkey --name schemathesis-admin --admin)
export ST_KEY_ID
node dist/src/main.js >"$LOG" 2>&1 &
SERVER=$!
# Wait for the server to stop before removing its data directory (it still writes while shutting down), and never let
# the clean-up decide the stage's result: under set -e a failed rm in this trap would turn a green run into exit 1.
trap 'kill $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; rm -rf "$DATA" || true' EXIT
URL=""
for _ in $(seq 1 600); do
  URL=$(sed -n 's/.*listening on \(http:\/\/[0-9.:]*\).*/\1/p' "$LOG" | head -1)
  [ -n "$URL" ] && break
  kill -0 $SERVER 2>/dev/null || { cat "$LOG"; exit 1; }
  sleep 0.1
done
[ -n "$URL" ] || { echo "server did not start"; cat "$LOG"; exit 1; }
mkdir -p "$REPORTS"
node -e "fetch(process.argv[1]).then((r) => r.text()).then((t) => require('node:fs').writeFileSync(process.argv[2], t))" "$URL/openapi.json" "$REPORTS/openapi.json"
# The resources the keyed reads need (ids exported for schemathesis.toml's per-operation parameters).
SEEDS=$(node "$ROOT/scripts/ci/schemathesis-seed.mjs" "$URL" "$KEY" "$ADMIN_KEY")
echo "seeded: $SEEDS"
for kv in $SEEDS; do export "${kv?}"; done
echo "fuzzing $URL/openapi.json with at most $MAX_EXAMPLES examples per operation"
set +e
# Run 1: every operation with an ordinary key (compare add-on). Run 2: the operator endpoints with an admin key, so
# they are exercised past 401/403.
"$VENV/bin/st" --config-file "$ROOT/scripts/ci/schemathesis.toml" run "$URL/openapi.json" --url "$URL" \
  --checks all \
  --exclude-checks positive_data_acceptance \
  --max-examples "$MAX_EXAMPLES" \
  --header "x-api-key: $KEY" \
  --seed 13 \
  --report json,har --report-dir "$REPORTS/keyed" \
  --no-color
rc1=$?
echo "== admin run: /v1/admin operations with an admin key"
"$VENV/bin/st" --config-file "$ROOT/scripts/ci/schemathesis.toml" run "$URL/openapi.json" --url "$URL" \
  --include-path-regex '^/v1/admin' \
  --checks all \
  --exclude-checks positive_data_acceptance \
  --max-examples "$MAX_EXAMPLES" \
  --header "x-api-key: $ADMIN_KEY" \
  --seed 13 \
  --report json,har --report-dir "$REPORTS/admin" \
  --no-color
rc2=$?
rc=$(( rc1 != 0 ? rc1 : rc2 ))
echo "== per-operation report (both runs)"
node "$ROOT/scripts/ci/schemathesis-coverage.mjs" "$REPORTS/openapi.json" "$REPORTS"/keyed/har-*.json "$REPORTS"/admin/har-*.json || rc=1
set -e
if grep -q '"level":50' "$LOG"; then
  echo "the server logged errors while fuzzed:"; grep '"level":50' "$LOG" | head -20
  rc=1
fi
exit $rc
