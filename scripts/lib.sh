# Shared install logic for scripts/run.sh and scripts/test.sh.
# Source it from the repository root; it defines functions only.
#
# Target: Debian 12, run as root (or with sudo available), network limited to
# Debian's archive and PyPI. Every step is idempotent and skips itself when
# there is nothing to do, so a second run is fast.

export DEBIAN_FRONTEND=noninteractive
export PIP_DISABLE_PIP_VERSION_CHECK=1

VENV="${VENV:-.venv}"
PYTHON="${PYTHON:-python3}"

# What the app needs at run time: WeasyPrint's native libraries and fonts
# covering Latin, the card suit symbols and Arabic.
RUNTIME_PACKAGES=(
    libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fontconfig
    fonts-dejavu-core fonts-noto-core fonts-hosny-amiri
)
# What the tests need on top: a browser, a database server, PDF tools, and Node for
# the JavaScript unit tests (node --test).
TEST_PACKAGES=(chromium postgresql poppler-utils nodejs)

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        die "need root (or sudo) to run: $*"
    fi
}

# ensure_apt_packages PKG...: install the packages that are missing.
# `apt-get update` runs only when something has to be installed.
ensure_apt_packages() {
    local missing=() pkg
    for pkg in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed'; then
            missing+=("$pkg")
        fi
    done
    [ "${#missing[@]}" -eq 0 ] && return 0
    log "apt-get install ${missing[*]}"
    as_root apt-get update -qq
    as_root apt-get install -y -qq --no-install-recommends \
        -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
        "${missing[@]}" </dev/null >/dev/null
}

# ensure_python: a python3 >= 3.11 with venv and ensurepip.
ensure_python() {
    if ! "$PYTHON" -c 'import sys, venv, ensurepip; assert sys.version_info >= (3, 11)' \
        2>/dev/null; then
        ensure_apt_packages python3 python3-venv
        PYTHON=python3
        "$PYTHON" -c 'import sys; assert sys.version_info >= (3, 11)' \
            || die "python3 >= 3.11 is required"
    fi
}

# ensure_venv [EXTRA]: .venv with the project installed in editable mode
# (`pip install -e .` or `-e .[EXTRA]`). Reinstalls only when pyproject.toml
# or the interpreter changed since the last successful install.
ensure_venv() {
    local extra="${1:-}" spec=".${1:+[$1]}" stamp want
    ensure_python
    if ! "$VENV/bin/python" -c 'import sys' 2>/dev/null; then
        log "creating $VENV"
        rm -rf "$VENV"
        "$PYTHON" -m venv "$VENV"
        "$VENV/bin/python" -m pip install -q --upgrade pip
    fi
    want="$(cat pyproject.toml; "$VENV/bin/python" -VV)"
    want="$(printf '%s' "$want" | sha256sum | cut -d' ' -f1)"
    stamp="$VENV/.installed-${extra:-base}"
    # A test install (base + extras) also satisfies a plain run.
    if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ] \
        || { [ -z "$extra" ] && [ "$(cat "$VENV/.installed-test" 2>/dev/null)" = "$want" ]; }; then
        return 0
    fi
    log "pip install -e '$spec'"
    "$VENV/bin/python" -m pip install -q -e "$spec"
    printf '%s\n' "$want" >"$stamp"
}

# compile_translations: build the .mo catalogues (they are not committed).
compile_translations() {
    local dir
    for dir in scorekeeper/translations translations; do
        if [ -n "$(find "$dir" -name '*.po' -print -quit 2>/dev/null)" ]; then
            "$VENV/bin/pybabel" -q compile -f -d "$dir"
        fi
    done
}

# --- The rules engine on the phone (Pyodide) -------------------------------
# ensure_pyodide: the npm package `pyodide`, this version only, unpacked into
# vendor/pyodide/<version>/ (ignored by git, served by the app from its own
# origin: scorekeeper/web/offline). The tarball's SHA-512 must match the pinned one.
PYODIDE_VERSION="314.0.7"
PYODIDE_INTEGRITY="sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
PYODIDE_FILES=(pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json)

ensure_pyodide() {
    ensure_npm_files pyodide "$PYODIDE_VERSION" "$PYODIDE_INTEGRITY" \
        "vendor/pyodide/$PYODIDE_VERSION" "${PYODIDE_FILES[@]}"
}

# ensure_npm_files NAME VERSION INTEGRITY DEST FILE...: `npm pack` NAME@VERSION, check the
# tarball's SHA-512 against INTEGRITY (npm's "sha512-…" form), and copy the FILEs (or
# folders) of its package/ folder into DEST; done once (DEST/.complete), never from a CDN.
ensure_npm_files() {
    local name="$1" version="$2" integrity="$3" dest="$4" tmp tarball got file
    shift 4
    [ -f "$dest/.complete" ] && return 0
    command -v npm >/dev/null 2>&1 || ensure_apt_packages npm
    log "npm pack $name@$version -> $dest"
    tmp="$(mktemp -d "${TMPDIR:-/tmp}/scorekeeper-$name.XXXXXX")"
    (cd "$tmp" && npm pack --silent "$name@$version" >/dev/null) \
        || { rm -rf "$tmp"; return 1; }
    tarball="$tmp/$name-$version.tgz"
    got="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
    if [ "$got" != "$integrity" ]; then
        rm -rf "$tmp"
        die "$name-$version.tgz does not have the pinned SHA-512"
    fi
    tar -xzf "$tarball" -C "$tmp"
    rm -rf "$dest"
    mkdir -p "$dest"
    for file in "$@"; do
        cp -R "$tmp/package/$file" "$dest/$file"
    done
    rm -rf "$tmp"
    touch "$dest/.complete"
}

# --- The accessibility audit (axe-core) --------------------------------------
# ensure_axe: the npm package `axe-core`, this version only, its axe.min.js unpacked
# into vendor/axe-core/<version>/ (ignored by git); the browser tests inject it into
# each page (tests/browser/test_axe.py). Never a CDN: the SHA-512 must match.
AXE_VERSION="4.14.1"
AXE_INTEGRITY="sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="

ensure_axe() {
    ensure_npm_files axe-core "$AXE_VERSION" "$AXE_INTEGRITY" \
        "vendor/axe-core/$AXE_VERSION" axe.min.js LICENSE
}

# --- The outbox's unit tests (fake-indexeddb) ------------------------------
# ensure_fake_indexeddb: the npm package `fake-indexeddb` (an in-memory IndexedDB, no
# dependencies of its own), this version only, unpacked into
# vendor/fake-indexeddb/<version>/ (ignored by git); tests/js/outbox.test.mjs runs
# static/offline/outbox.js on it, and reads the version from here. The SHA-512 must match.
FAKE_INDEXEDDB_VERSION="6.2.8"
FAKE_INDEXEDDB_INTEGRITY="sha512-mpVW/HLUqwKXJ6F/s0hMgdK1eQfM4ncTHDioNGHWL0WKV3VcZCoZq1NKgboBbAge07aRCO7L48yziKssL59XEQ=="

ensure_fake_indexeddb() {
    ensure_npm_files fake-indexeddb "$FAKE_INDEXEDDB_VERSION" "$FAKE_INDEXEDDB_INTEGRITY" \
        "vendor/fake-indexeddb/$FAKE_INDEXEDDB_VERSION" package.json LICENSE build
}

# --- Throwaway PostgreSQL -------------------------------------------------
# start_postgres: initdb + pg_ctl in a temp dir, as the `postgres` user
# (the server refuses to run as root), listening on a unix socket only.
# Exports TEST_DATABASE_URL and registers stop_postgres on EXIT.
PG_TMP=""
PG_BIN=""

pg_as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

find_pg_bin() {
    # Debian's binaries, newest major version; not whatever is first on PATH.
    PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
    [ -x "$PG_BIN/pg_ctl" ] || die "no PostgreSQL server under /usr/lib/postgresql"
}

start_postgres() {
    find_pg_bin
    PG_TMP="$(mktemp -d "${TMPDIR:-/tmp}/scorekeeper-pg.XXXXXX")"
    trap stop_postgres EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    if [ "$(id -u)" -eq 0 ]; then chown postgres: "$PG_TMP"; fi
    log "starting PostgreSQL ($PG_BIN) in $PG_TMP"
    pg_as_owner "$PG_BIN/initdb" -D "$PG_TMP/data" -U postgres -A trust \
        -E UTF8 --locale=C.UTF-8 --no-sync >"$PG_TMP/initdb.log" 2>&1 \
        || { cat "$PG_TMP/initdb.log" >&2; die "initdb failed"; }
    pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -l "$PG_TMP/server.log" -w -t 60 \
        -o "-c listen_addresses='' -k $PG_TMP -p 5432 -c fsync=off \
            -c synchronous_commit=off -c full_page_writes=off" start >/dev/null \
        || { cat "$PG_TMP/server.log" >&2; die "PostgreSQL did not start"; }
    "$PG_BIN/createdb" -h "$PG_TMP" -p 5432 -U postgres scorekeeper_test
    export TEST_DATABASE_URL="postgresql+psycopg://postgres@/scorekeeper_test?host=$PG_TMP&port=5432"
}

stop_postgres() {
    [ -n "$PG_TMP" ] || return 0
    if [ -f "$PG_TMP/data/postmaster.pid" ]; then
        pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$PG_TMP"
    PG_TMP=""
}
