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
#   CONFORMANCE_BOOT_VERSION=4.0.9 conformance/run.sh   # the client on another Spring Boot line
#                                  (a clean build; JAVA_HOME chooses the JDK)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
jar="$root/mcp-supervisor-conformance/target/mcp-supervisor-conformance.jar"
out="${CONFORMANCE_OUTPUT:-$root/mcp-supervisor-conformance/target/conformance}"
# "extension" runs an extension scenario once, without a spec version
revisions=(2025-11-25 2026-07-28 extension)
scenarios=(initialize tools_call sse-retry elicitation-sep1034-client-defaults
  json-schema-2020-12-preservation request-metadata http-standard-headers http-custom-headers
  http-invalid-tool-headers json-schema-ref-no-deref sep-2322-client-request-state
  auth/metadata-default auth/metadata-var1 auth/metadata-var2 auth/metadata-var3 auth/basic-cimd
  auth/scope-from-www-authenticate auth/scope-from-scopes-supported auth/scope-omitted-when-undefined
  auth/scope-step-up auth/scope-retry-limit auth/token-endpoint-auth-basic auth/token-endpoint-auth-post
  auth/token-endpoint-auth-none auth/pre-registration auth/resource-mismatch auth/offline-access-scope
  auth/offline-access-not-supported auth/authorization-server-migration auth/iss-supported
  auth/iss-not-advertised auth/iss-supported-missing auth/iss-wrong-issuer auth/iss-unexpected
  auth/iss-normalized auth/metadata-issuer-mismatch auth/client-credentials-basic)
[ "$#" -gt 0 ] && scenarios=("$@")

if [ "${CONFORMANCE_SKIP_BUILD:-}" != 1 ]; then
  boot=()
  [ -n "${CONFORMANCE_BOOT_VERSION:-}" ] && boot=(clean "-Dspring-boot.version=$CONFORMANCE_BOOT_VERSION")
  (cd "$root" && mvn -B -q -pl mcp-supervisor-conformance -am -DskipTests "${boot[@]}" package)
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
    version=(--spec-version "$revision")
    [ "$revision" = extension ] && version=()
    conformance client --scenario "$scenario" "${version[@]}" --timeout 120000 \
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
    # a warning fails the suite's own verdict too: reported as a failure here
    warned=$(grep -c '"status": "WARNING"' "$checks" || true)
    if [ "$warned" != 0 ]; then
      failed=1
      result[$scenario,$revision]="$summary, $warned warnings"
    fi
    if [ "${summary%/*}" != "${summary#*/}" ] || [ "$warned" != 0 ]; then
      failed=1
      echo "$scenario ($revision): $summary checks passed; failed:"
      node -e '
        for (const c of JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))) {
          if (c.status === "FAILURE" || c.status === "WARNING") {
            console.log(`  - ${c.id}: ${c.errorMessage ?? c.description}` + (c.details ? ` ${JSON.stringify(c.details)}` : ""));
          }
        }' "$checks"
    fi
  done
done

echo
printf '| %-36s | %-10s | %-10s | %-10s |\n' scenario "${revisions[@]}"
printf '| %-36s | %-10s | %-10s | %-10s |\n' "---" "---" "---" "---"
for scenario in "${scenarios[@]}"; do
  printf '| %-36s | %-10s | %-10s | %-10s |\n' "$scenario" "${result[$scenario,${revisions[0]}]}" \
    "${result[$scenario,${revisions[1]}]}" "${result[$scenario,${revisions[2]}]}"
done
echo "(passed/total checks; - where the scenario does not belong to the revision; results in $out)"
exit "$failed"
