#!/usr/bin/env bash
# Install what the tests need, start a throwaway PostgreSQL, then run
# ruff, mypy, the layer contracts (import-linter) and pytest. Exits non-zero if
# any of them fails.
# Extra arguments go to pytest: bash scripts/test.sh -k api -x
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/lib.sh
. scripts/lib.sh

ensure_apt_packages "${RUNTIME_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
ensure_venv test
compile_translations
ensure_pyodide || die "could not fetch Pyodide (npm package pyodide); the offline tests need it"
start_postgres

failed=()
run_step() {
    local name="$1"
    shift
    log "$name"
    "$@" || failed+=("$name")
}
run_step "ruff check" "$VENV/bin/ruff" check .
run_step "mypy" "$VENV/bin/mypy"
run_step "layer contracts" "$VENV/bin/lint-imports"
run_step "pytest" "$VENV/bin/pytest" "$@"

if [ "${#failed[@]}" -ne 0 ]; then
    printf 'FAILED: %s\n' "${failed[*]}" >&2
    exit 1
fi
log "all checks passed"
