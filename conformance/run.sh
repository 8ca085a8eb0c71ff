#!/usr/bin/env bash
# Runs the public MCP conformance suite's client scenarios against an application on the
# starter (the mcp-supervisor-conformance module), one scenario at a time, for each
# revision a scenario belongs to, and prints passed/total checks per scenario and revision.
# Exits non-zero when a check fails.
#
#   conformance/run.sh                 # build the client application, then run
#   CONFORMANCE_SKIP_BUILD=1 conformance/run.sh
#   conformance/run.sh tools_call sse-retry    # some scenarios only
#   CONFORMANCE_COMMAND="node my-client.mjs" conformance/run.sh   # another client
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
jar="$root/mcp-supervisor-conformance/target/mcp-supervisor-conformance.jar"
out="${CONFORMANCE_OUTPUT:-$root/mcp-supervisor-conformance/target/conformance}"
revisions=(2025-11-25 2026-07-28)
scenarios=(initialize tools_call sse-retry elicitation-sep1034-client-defaults
  json-schema-2020-12-preservation request-metadata http-standard-headers http-custom-headers
  http-invalid-tool-headers json-schema-ref-no-deref sep-2322-client-request-state)
[ "$#" -gt 0 ] && scenarios=("$@")

if [ "${CONFORMANCE_SKIP_BUILD:-}" != 1 ]; then
  (cd "$root" && mvn -B -q -pl mcp-supervisor-conformance -am -DskipTests package)
fi
if [ ! -f "$here/node_modules/.package-lock.json" ] \
    || [ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi

# the CLI imports fs.globSync (Node.js 22) at load: the shim supplies it on Node.js 20
conformance() {
  node --import "$here/node20-shim.mjs" "$here/node_modules/@modelcontextprotocol/conformance/dist/index.js" "$@"
}

# "name [rev,rev]" lines: the revisions each client scenario belongs to
listing=$(conformance list --client)
belongs() { # scenario revision
  grep -E "^  - $1 \[" <<<"$listing" | grep -q "$2"
}

rm -rf "$out"
declare -A result
failed=0
for scenario in "${scenarios[@]}"; do
  for revision in "${revisions[@]}"; do
    if ! belongs "$scenario" "$revision"; then
      result[$scenario,$revision]="-"
      continue
    fi
    dir="$out/$revision/$scenario"
    mkdir -p "$dir"
    conformance client --scenario "$scenario" --spec-version "$revision" --timeout 120000 \
      --command "${CONFORMANCE_COMMAND:-java -jar $jar}" -o "$dir" >"$dir/run.log" 2>&1 || true
    summary=$(grep -oE 'Passed: [0-9]+/[0-9]+' "$dir/run.log" | tail -1 | cut -d' ' -f2 || true)
    checks=$(find "$dir" -name checks.json | head -1)
    if [ -z "$summary" ] || [ -z "$checks" ]; then
      result[$scenario,$revision]="error"
      failed=1
      echo "$scenario ($revision): the suite reported no checks, see $dir/run.log"
      continue
    fi
    result[$scenario,$revision]="$summary"
    if [ "${summary%/*}" != "${summary#*/}" ]; then
      failed=1
      echo "$scenario ($revision): $summary checks passed; failed:"
      node -e '
        for (const c of JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))) {
          if (c.status === "FAILURE") {
            console.log(`  - ${c.id}: ${c.errorMessage ?? c.description}` + (c.details ? ` ${JSON.stringify(c.details)}` : ""));
          }
        }' "$checks"
    fi
  done
done

echo
printf '| %-36s | %-10s | %-10s |\n' scenario "${revisions[@]}"
printf '| %-36s | %-10s | %-10s |\n' "---" "---" "---"
for scenario in "${scenarios[@]}"; do
  printf '| %-36s | %-10s | %-10s |\n' "$scenario" "${result[$scenario,${revisions[0]}]}" \
    "${result[$scenario,${revisions[1]}]}"
done
echo "(passed/total checks; - where the scenario does not belong to the revision; results in $out)"
exit "$failed"
