#!/usr/bin/env bash
# Install what the tests need, start a throwaway PostgreSQL, then run
# ruff, mypy, the layer contracts (import-linter), the JavaScript unit tests
# (node --test) and pytest, the tests spread over the cores (pytest-xdist).
# Exits non-zero if any of them fails.
#
#   bash scripts/test.sh            everything (what CI runs)
#   bash scripts/test.sh --quick    the quick tier: every check, and every test but
#                                   the solver, served and browser ones
# Extra arguments go to pytest: bash scripts/test.sh -k api -x
# PYTEST_WORKERS sets how many processes run the tests (default: auto, one per core).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/lib.sh
. scripts/lib.sh

markers=()
if [ "${1:-}" = "--quick" ]; then
    shift
    markers=(-m "not solver and not served and not browser")
fi

ensure_apt_packages "${RUNTIME_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
ensure_venv test
compile_translations
ensure_pyodide || die "could not fetch Pyodide (npm package pyodide); the offline tests need it"
ensure_axe || die "could not fetch axe-core (npm package axe-core); the accessibility audit needs it"
ensure_fake_indexeddb || die "could not fetch fake-indexeddb (npm package fake-indexeddb); the outbox's unit tests need it"
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
if [ -d tests/js ]; then
    run_step "javascript unit tests" node --test tests/js/
fi
run_step "pytest" "$VENV/bin/pytest" -n "${PYTEST_WORKERS:-auto}" "${markers[@]}" "$@"

if [ "${#failed[@]}" -ne 0 ]; then
    printf 'FAILED: %s\n' "${failed[*]}" >&2
    exit 1
fi
log "all checks passed"
