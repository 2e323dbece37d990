#!/usr/bin/env bash
# Install what the app needs, migrate the database and serve the app.
#   bash scripts/run.sh            -> http://127.0.0.1:5000
#   HOST=0.0.0.0 PORT=8000 bash scripts/run.sh
# DATABASE_URL selects the database (default: SQLite in instance/).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/lib.sh
. scripts/lib.sh

HOST="${HOST:-127.0.0.1}"
PORT="${PORT:-5000}"

ensure_apt_packages "${RUNTIME_PACKAGES[@]}"
ensure_venv
compile_translations
# Without it the app runs, but cannot offer offline play.
ensure_pyodide || log "Pyodide could not be fetched: the offline rules engine is unavailable"

if [ -f migrations/env.py ]; then
    log "flask db upgrade"
    "$VENV/bin/flask" --app scorekeeper db upgrade
fi

log "scorekeeper is running at http://$HOST:$PORT (Ctrl-C to stop)"
if [ -x "$VENV/bin/gunicorn" ]; then
    # Workers, threads, timeouts and logs: gunicorn.conf.py (WEB_CONCURRENCY etc.).
    exec "$VENV/bin/gunicorn" -c gunicorn.conf.py --bind "$HOST:$PORT" wsgi:app
fi
exec "$VENV/bin/flask" --app scorekeeper run --host "$HOST" --port "$PORT"
