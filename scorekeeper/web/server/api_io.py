"""Reading the JSON API's requests and writing its answers, shared by every feature's API.

A request's JSON body (:func:`json_body`) and an uploaded JSON file (:func:`json_file`)
are read with a bound on their nesting, so that no input crashes a decoder or a
check that walks it; a game's version travels as its ETag (:func:`with_etag`)
and comes back in ``If-Match`` (:func:`if_match`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NoReturn, Protocol

from flask import Response, abort, jsonify, request

from scorekeeper.store.input import check_storable
from scorekeeper.text.locale import gettext as _


class Versioned(Protocol):
    @property
    def version(self) -> int: ...


def json_body() -> dict[str, Any]:
    """The request's JSON object, or a 400 answer if it is anything else.

    The Content-Type is not required to be application/json. A body nested
    too deeply for the JSON decoder is a 400 as well, not a crash.
    """
    try:
        data = request.get_json(force=True, silent=True)
    except RecursionError:
        data = None
        too_deep = True
    else:
        too_deep = nesting(data) > MAX_NESTING
    if too_deep:  # no request needs it, and a solver process could not decode it again
        _bad_request(_("The request body is nested too deeply."))
    if not isinstance(data, dict):
        _bad_request(_("The request body must be a JSON object."))
    check_storable(data)  # JSON may spell a lone surrogate (\udfff) or a NUL: 422, naming it
    return data


MAX_NESTING = 32
"""Levels of lists and objects a request may nest (the deepest one the API reads has 4;
a circle's backup file, 10)."""


def json_file(raw: bytes) -> object:
    """An uploaded file's JSON (a backup); :class:`ValueError` when it is not JSON in UTF-8,
    or nests deeper than :data:`MAX_NESTING` (too deep for the decoder, or for the checks
    that walk it, is refused like any file that is not a backup: never a crash)."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ValueError("not JSON in UTF-8") from None
    if nesting(data) > MAX_NESTING:
        raise ValueError("nested too deeply")
    return data


def nesting(data: object) -> int:
    """How deeply lists and objects nest in ``data``, counted without recursion.

    >>> nesting(1), nesting([]), nesting({"a": [[1], {"b": []}]})
    (0, 1, 4)
    """
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, list):
            deepest = max(deepest, depth)
            stack.extend((item, depth + 1) for item in value)
    return deepest


def _bad_request(message: str) -> NoReturn:
    abort(400, description=message)


def if_match(required: bool) -> int | None:
    """The version in ``If-Match`` (``"12"``, ``W/"12"`` or ``12``), None if absent or ``*``."""
    raw = request.headers.get("If-Match")
    if raw is None or not raw.strip():
        if required:
            message = _(
                "Say which version of the game you are changing: send If-Match "
                'with the version from its ETag (e.g. If-Match: "12").'
            )
            abort(428, description=message)
        return None
    value = raw.strip()
    if value == "*":
        return None
    version = parse_etag(value)
    if version is None:
        message = _(
            'If-Match must be the game\'s version from its ETag, such as "12", not %(value)s.',
            value=value,
        )
        abort(400, description=message)
    return version


def parse_etag(value: str) -> int | None:
    """``"12"``, ``W/"12"`` or ``12`` -> 12; None for anything else (``"²"`` included).

    >>> [parse_etag(v) for v in ('"12"', 'W/"12"', "12", '"²"', '"1e3"')]
    [12, 12, 12, None, None]
    """
    value = value.removeprefix("W/").strip().strip('"')
    digits = value.isascii() and value.isdigit()  # str.isdigit() also accepts "²" and "٣"
    return int(value) if digits and len(value) < 12 else None


def with_etag(body: dict[str, Any], loaded: Versioned, status: int) -> Response:
    """``body`` as JSON with ``status``, the game's version as its ETag."""
    response = jsonify(body)
    response.status_code = status
    response.set_etag(str(loaded.version))
    return response


def unchanged(version: Callable[[], int]) -> Response | None:
    """A bodiless 304 when ``If-None-Match`` holds the current ``version()``, else None.

    The version is read only when the request sends ``If-None-Match``, so a first ``GET``
    costs no extra lookup; a poll is answered from the version alone, before any replay.
    """
    if not request.if_none_match:
        return None
    current = str(version())
    if not request.if_none_match.contains_weak(current):
        return None
    response = Response(status=304)
    response.set_etag(current)
    return response
