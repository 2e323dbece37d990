"""``scorekeeper check FILE.json``: the API's checks, offline.

The file holds the body of one ``POST /api/v1/check/…`` request; the kind of
check is guessed from its keys or given with ``--kind``. The answer is the
same JSON the API gives. Exit status: 0 answered, 1 refused (the error JSON
is printed), 2 usage or unreadable file.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from scorekeeper.rules.checks import CHECKS, error_body, guess_kind
from scorekeeper.rules.errors import RulesError


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    args = _parser().parse_args(argv)
    try:
        body = _read(args.file)
    except (OSError, ValueError) as error:
        print(f"scorekeeper: cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    answer, status = run_check(body, args.kind)
    json.dump(answer, out, ensure_ascii=False, indent=2 if args.pretty else None)
    out.write("\n")
    return status


def run_check(body: object, kind: str | None = None) -> tuple[dict[str, Any], int]:
    """Answer one check body: (JSON answer, exit status)."""
    if not isinstance(body, dict):
        message = "The request body must be a JSON object."
        return {"ok": False, "errors": [{"rule": None, "field": None, "message": message}]}, 1
    kind = kind or guess_kind(body)
    if kind not in CHECKS:
        message = f"There is no “{kind}” check; use one of {', '.join(sorted(CHECKS))}."
        return {"ok": False, "errors": [{"rule": None, "field": None, "message": message}]}, 1
    try:
        return CHECKS[kind](body), 0
    except RulesError as error:
        return error_body(error), 1


def _read(path: str) -> object:
    if path == "-":
        return json.load(sys.stdin)
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scorekeeper", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="check a deal, a play record or a redeal claim")
    check.add_argument("file", help="a JSON file with the request body, or - for standard input")
    check.add_argument("--kind", choices=sorted(CHECKS), help="the check (default: from the keys)")
    check.add_argument("--pretty", action="store_true", help="indent the JSON answer")
    return parser


if __name__ == "__main__":
    raise SystemExit(main())
