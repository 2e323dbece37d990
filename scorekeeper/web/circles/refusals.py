"""A circle's refusals as the API's errors or as 404 pages (via :mod:`scorekeeper.web.errors`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

from flask import Response, abort, request

from scorekeeper.store.circles import services
from scorekeeper.store.circles.errors import CircleNotFound, CircleRefusal, MemberNotFound
from scorekeeper.text import circles as words
from scorekeeper.text.locale import gettext as _
from scorekeeper.web.errors import error_body, error_response, rollback

T = TypeVar("T")


def problems_of(refusal: CircleRefusal) -> list[dict[str, Any]]:
    """The refusal's problems in the API's error format, in the reader's language."""
    return [
        {**error_body(words.refusal(p.code, p.params), field=p.field), "code": p.code}
        for p in refusal.problems
    ]


def api_refusal(refusal: CircleRefusal) -> tuple[Response, int]:
    rollback()
    return error_response(refusal.status, problems_of(refusal))


def not_found(error: LookupError) -> NoReturn:
    """404 with the circle's (or member's) sentence, as a page or as the API's JSON."""
    rollback()
    if isinstance(error, MemberNotFound):
        abort(404, description=words.member_not_found())
    abort(404, description=words.circle_not_found())


def load_or_404(circle_id: str) -> services.CircleData:
    try:
        return services.load_circle(circle_id)
    except CircleNotFound as error:
        not_found(error)


def member_or_404(circle: services.CircleData, member_id: int) -> services.MemberRow:
    try:
        return circle.member(member_id)
    except MemberNotFound as error:
        not_found(error)


def bearer_token() -> str:
    header = request.headers.get("Authorization", "")
    scheme, _space, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def require_circle_token(circle_id: str) -> None:
    """401 without a bearer token, 403 with one that is not this circle's, 404 for no circle."""
    token = bearer_token()
    if token and services.token_matches(circle_id, token):
        return
    if not services.circle_exists(circle_id):
        not_found(CircleNotFound(circle_id))
    if not token:
        abort(
            401, description=_("This needs the circle's edit token: Authorization: Bearer <token>.")
        )
    abort(403, description=_("This edit token does not belong to this circle."))


def answer(run: Callable[[], T]) -> T | tuple[Response, int]:
    """Run a service call; a circle's refusal becomes the API's error answer."""
    try:
        return run()
    except CircleRefusal as refusal:
        return api_refusal(refusal)
    except (CircleNotFound, MemberNotFound) as error:
        not_found(error)
