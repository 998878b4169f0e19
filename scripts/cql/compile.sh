#!/usr/bin/env bash
# Compiles cql/*.cql to ELM JSON (cql/elm/*.json) with the CQL reference translator from Maven Central, pinned in
# scripts/cql/pom.xml. Needs java (17+) and mvn. Usage: scripts/cql/compile.sh [output folder]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$root/cql/elm}"
cp_file="$(mktemp)"
trap 'rm -f "$cp_file"' EXIT
# Offline first (the artifacts are usually in ~/.m2 already), then online.
mvn -q -B -o -f "$here/pom.xml" dependency:build-classpath -Dmdep.outputFile="$cp_file" >/dev/null 2>&1 \
  || mvn -q -B -f "$here/pom.xml" dependency:build-classpath -Dmdep.outputFile="$cp_file"
java -cp "$(cat "$cp_file")" "$here/CompileCql.java" "$root/cql" "$out"
