"""The dispute desk's redeal check (R8) and claim adjudication pages.

Redeal check: ``/disputes/redeal`` and ``/games/<id>/redeal-check`` (a GET
form); a granted redeal can be recorded on the game by a phone with edit
rights (``services.record_redeal``). Claims: ``/disputes/claim``, also
reached from a game (``/games/<id>/claim``, whose form posts here with the
game's id, so that following a game is enough to have a claim judged).
A posted claim is judged outside the request threads
(:mod:`~scorekeeper.web.disputes.jobs`, :mod:`~scorekeeper.web.disputes.pool`):
the post redirects to the claim's page, ``/disputes/claims/<id>``, which
shows its progress (refreshing itself; ``static/claims.js`` follows it
without reloads) and then the answer, as soon as the claim is decided. When
its exact value was not found in the short time it is given after the ruling
(``CLAIM_EXACT_SECONDS``), the page offers to work it out: the same claim
again as a new job, its exact value sought for its whole time limit. The
engine's checks (``check_redeal``, ``check_claim``) do the judging.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import (
    Response,
    abort,
    flash,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.datastructures import MultiDict

from scorekeeper.rules.cards import Card, hand_mask
from scorekeeper.rules.checks import check_redeal as engine_check_redeal
from scorekeeper.rules.contracts import ALL_CONTRACTS, Contract
from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.game_log import RedealEntry
from scorekeeper.store import games as services
from scorekeeper.store.input import NOTE_MAX
from scorekeeper.text import disputes as text
from scorekeeper.text.disputes import gettext
from scorekeeper.web.access import can_edit, require_edit
from scorekeeper.web.blueprint import Page, bp, load_or_404
from scorekeeper.web.disputes import jobs, pool, progress
from scorekeeper.web.disputes.claim_form import (
    DEFAULT_SECONDS,
    HIGH_RANKS,
    LOW_RANKS,
    MAX_SECONDS,
    PRESETS,
    LineStep,
    LineTrick,
    claim_field,
    preset_score,
    read_claim,
    trick_line,
    trix_line,
)
from scorekeeper.web.disputes.input import CLAIM_SWITCHES, REDEAL_SWITCHES, Entered
from scorekeeper.web.disputes.progress import Progress
from scorekeeper.web.disputes.record import Desk
from scorekeeper.web.disputes.routes import known_game_choices, standalone_desk
from scorekeeper.web.errors import Refused, try_write

REDEAL_CONTRACTS = (Contract.KING, Contract.TRIX)
PAGE_WAIT = 1.0
"""Seconds the claim form's post waits for the answer before showing the claim's progress."""


# --- redeal checks (R8) ----------------------------------------------------------------------


@dataclass(frozen=True)
class RedealVerdict:
    eligible: bool
    reason: str
    contract: Contract


def _redeal_verdict(desk: Desk, entered: Entered) -> RedealVerdict | None:
    """The engine's verdict on the typed hand, or None with the problems on ``entered``."""
    contract = entered.contract("contract", REDEAL_CONTRACTS)
    hand = entered.cards("hand")
    if not hand and entered.ok:
        entered.add("hand", gettext("Enter the 13 cards of the hand."))
    if contract is None or not entered.ok:
        return None
    body = {
        "rules": desk.rules.to_dict(),
        "contract": contract.value,
        "hand": [str(c) for c in hand],
    }
    try:
        answer = engine_check_redeal(body)
    except RulesError as error:
        entered.add_problems(error.problems, lambda path: "hand")
        return None
    reason = text.redeal_reason(answer["code"], hand_mask(hand))
    return RedealVerdict(answer["eligible"], reason, contract)


@bp.get("/disputes/redeal")
def check_redeal() -> Page:
    """May this hand ask for a redeal? Without a game."""
    entered = Entered(request.args)
    return _redeal_page(standalone_desk(entered, REDEAL_SWITCHES), entered)


@bp.get("/games/<game_id>/redeal-check")
def game_redeal_check(game_id: str) -> Page:
    """May this hand ask for a redeal? With the game's rules; a granted one can be recorded."""
    loaded = load_or_404(game_id)
    desk = Desk(loaded.rules, tuple(loaded.players), loaded)
    return _redeal_page(desk, Entered(request.args))


@bp.post("/games/<game_id>/redeal-check/record")
def record_checked_redeal(game_id: str) -> Page:
    """Record a redeal the check granted (edit rights): it uses up no contract (R2)."""
    loaded = load_or_404(game_id)
    require_edit(game_id)
    entered = Entered(request.form)
    desk = Desk(loaded.rules, tuple(loaded.players), loaded)
    verdict = _redeal_verdict(desk, entered)
    seat = entered.seat("seat", gettext("Choose who asks for the redeal."))
    if verdict is not None and not verdict.eligible:
        entered.add("", gettext("This hand may not ask for a redeal, so nothing was recorded."))
    if verdict is None or seat is None or not entered.ok:
        return _redeal_page(desk, entered, verdict)
    entry = RedealEntry("redeal", seat, verdict.contract, note=verdict.reason[:NOTE_MAX])
    raw = request.form.get("version", "")
    version = int(raw) if raw.isdigit() else None
    outcome = try_write(
        lambda: services.record_redeal(game_id, entry, version, source="check"),
        loaded,
        lambda problems: entered.add_problems(problems, lambda path: ""),
    )
    if isinstance(outcome, Refused):
        if not outcome.stale:  # the engine refused it: the same page, its problems shown
            return _redeal_page(desk, entered, verdict)
        fresh = Desk(outcome.loaded.rules, tuple(outcome.loaded.players), outcome.loaded)
        return _redeal_page(fresh, entered, verdict, outcome.messages, outcome.status)
    flash(
        gettext("Redeal recorded: the king chooses a contract again. None was used up."), "success"
    )
    return redirect(url_for("web.game", game_id=game_id))


def _redeal_page(
    desk: Desk,
    entered: Entered,
    verdict: RedealVerdict | None = None,
    message: list[str] | None = None,
    status: int = 200,
) -> tuple[str, int]:
    if verdict is None and entered.has("check") and entered.ok:
        verdict = _redeal_verdict(desk, entered)
    if status == 200 and not entered.ok:
        status = 422
    loaded = desk.loaded
    return render_template(
        "disputes/redeal.html",
        desk=desk,
        loaded=loaded,
        names=desk.names,
        entered=entered,
        verdict=verdict,
        contracts=REDEAL_CONTRACTS,
        editable=loaded is not None and can_edit(loaded.id) and not loaded.game.finished,
        games=known_game_choices() if loaded is None else [],
        switches=REDEAL_SWITCHES if loaded is None else (),
        message=message,
    ), status


# --- claims ----------------------------------------------------------------------------------


@dataclass
class ClaimView:
    """A claim's answer, for the page."""

    answer: dict[str, Any]
    sentence: str
    claimant: str
    tricks: list[LineTrick]
    turns: list[LineStep]


def claim_desk(entered: Entered) -> Desk:
    """The game's rules and names when the form comes from a game (``for_game``)."""
    source = entered.text("for_game")
    if source and services.game_exists(source):  # False for an impossible id, unasked
        loaded = services.load_game(source)
        return Desk(loaded.rules, tuple(loaded.players), loaded)
    if source:
        entered.add("", gettext("There is no game at this address any more."))
    return standalone_desk(entered, CLAIM_SWITCHES)


@bp.route("/disputes/claim", methods=["GET", "POST"])
def claim() -> Page:
    """Does a claim hold? A posted claim is judged by the claim pool; its page follows it."""
    entered = Entered(request.form if request.method == "POST" else request.args)
    desk = claim_desk(entered)
    body = read_claim(entered, desk.rules, desk.names) if request.method == "POST" else None
    if body is None:
        return _claim_page(desk, entered, None)
    form = [(k, v) for k, v in request.form.items(multi=True) if k != "csrf_token"]
    game = desk.loaded.id if desk.loaded is not None else None
    job_id, done = jobs.start(body, form, pool.app_limits(), pool.client_address(), game)
    done.wait(PAGE_WAIT)  # most claims are settled at once: their page shows the answer
    return redirect(url_for("web.claim_job", job_id=job_id, _anchor="verdict"), 303)


@bp.get("/games/<game_id>/claim")
def game_claim(game_id: str) -> Page:
    """The claim form for a game: its rules and names."""
    loaded = load_or_404(game_id)
    return _claim_page(Desk(loaded.rules, tuple(loaded.players), loaded), Entered({}), None)


@bp.get("/disputes/claims/<job_id>")
def claim_job(job_id: str) -> Response:
    """A claim's page: its progress (refreshed until it is judged), then the answer."""
    job = _job_or_404(job_id)
    entered = Entered(MultiDict(job.form))
    desk = claim_desk(entered)
    view = None
    if job.answer is not None:
        view = claim_view(desk, job.body, job.answer)
    elif job.refusal is not None:
        entered.add_problems(job.refusal.problems, claim_field)
    page, status = _claim_page(desk, entered, view, job)
    response = make_response(page, status)
    response.headers["Cache-Control"] = "no-store"  # a refresh must ask again
    return response


@bp.post("/disputes/claims/<job_id>/exact")
def claim_job_exact(job_id: str) -> Page:
    """A decided claim judged again, its exact value sought for the whole time limit."""
    job = _job_or_404(job_id)
    body = {**job.body, "exact_time_limit": job.limit}
    new_id, done = jobs.start(body, job.form, pool.app_limits(), pool.client_address())
    done.wait(PAGE_WAIT)
    return redirect(url_for("web.claim_job", job_id=new_id, _anchor="verdict"), 303)


@bp.get("/disputes/claims/<job_id>/status")
def claim_job_status(job_id: str) -> Response:
    """Where a claim is, for the page's script: its state, the seconds spent and its words."""
    job = _job_or_404(job_id)
    answer = jsonify(
        state=job.state,
        finished=job.finished,
        elapsed=round(job.elapsed, 1),
        limit=job.limit,
        message=progress.sentence(job.state, job.elapsed, job.limit, job.reason),
    )
    answer.headers["Cache-Control"] = "no-store"
    return answer


def _job_or_404(job_id: str) -> jobs.Job:
    job = jobs.read(pool.app_limits(), job_id)
    if job is None:
        message = gettext(
            "This claim's answer is no longer kept (answers are kept for an hour); judge it again."
        )
        abort(404, description=message)
    return job


def claim_view(desk: Desk, body: dict[str, Any], answer: dict[str, Any]) -> ClaimView:
    """The engine's answer laid out for the page: the sentence, the defeating line."""
    seat = body["claim"]["seat"]
    sentence = text.claim_sentence(answer["verdict"])
    line: list[str] = answer["line"] if not answer["holds"] else []
    if body["contracts"] == ["trix"]:
        hands = [body["hands"][str(s)] for s in range(4)]
        turns = trix_line(body["to_play"], hands, line) if answer["decided"] else []
        return ClaimView(answer, sentence, desk.names[seat], [], turns)
    tricks = trick_line(body["leader"], body["current_trick"], line) if line else []
    return ClaimView(answer, sentence, desk.names[seat], tricks, [])


def _claim_page(
    desk: Desk, entered: Entered, view: ClaimView | None, job: jobs.Job | None = None
) -> tuple[str, int]:
    status = 422 if not entered.ok else 200
    return render_template(
        "disputes/claim.html",
        desk=desk,
        loaded=desk.loaded,
        names=desk.names,
        entered=entered,
        view=view,
        contracts=ALL_CONTRACTS,
        presets=[(p, preset_score(p, desk.rules)) for p in PRESETS],
        low_ranks=LOW_RANKS,
        high_ranks=HIGH_RANKS,
        default_seconds=DEFAULT_SECONDS,
        max_seconds=MAX_SECONDS,
        games=known_game_choices() if desk.loaded is None else [],
        switches=CLAIM_SWITCHES if desk.loaded is None else (),
        card=Card.parse,
        job=job,
        progress=_progress(job),
        exact_more=job is not None and _exact_budget(job) < job.limit,
    ), status


def _exact_budget(job: jobs.Job) -> float:
    """How long the job's exact value was sought once its claim was decided."""
    return float(pool.app_limits().exact_limit(job.body))


def _progress(job: jobs.Job | None) -> Progress | None:
    if job is None or job.state in ("done", "refused"):
        return None
    message = progress.sentence(job.state, job.elapsed, job.limit, job.reason)
    return Progress(job.state, message, job.elapsed, job.limit)
