"""What the phone's engine worker runs: the game replayed with the entries waiting to sync.

This module runs in two places: here (the tests call it as any module), and
on the phone, in Pyodide, where it arrives in the engine archive
(:mod:`scorekeeper.web.offline.engine`) with the modules it imports. So it
imports nothing but the standard library, the engine (whose sentences,
:mod:`scorekeeper.rules.sentences`, are the message templates) and
:mod:`scorekeeper.web.offline.projection`: no Flask, no Babel, no database.

The phone sends JSON and gets JSON back (:func:`check`); a refusal is the
engine's own problems, said with the same templates as on the server, in the
language of the catalogue the page gave (:func:`use_catalogue`).

>>> game = {"rules": {}, "first_king": 0, "players": ["Rana", "Sami", "Omar", "Lina"], "log": []}
>>> deal = {"contracts": ["trix"], "captures": {"trix_order": [2, 0, 3, 1]}}
>>> answer = json.loads(check(json.dumps({"game": game, "pending": [],
...                                      "entry": {"action": "record", "entry": deal}})))
>>> answer["ok"], answer["deal"]["scores"], answer["state"]["deals_played"]
(True, [150, 50, 200, 100], 1)
"""

from __future__ import annotations

import gettext
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.rules.errors import Problem, RulesError, StateError
from scorekeeper.rules.events.tables import named_first_king
from scorekeeper.rules.game import Game
from scorekeeper.rules.game_log import DealEntry, Entry, entry_from_dict
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.sentences import english, isolating, render
from scorekeeper.web.offline.projection import Owned, project

FSI, PDI = "\u2068", "\u2069"
BIDI_CONTROLS = dict.fromkeys(map(ord, "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"), None)
BIDI_CONTROLS |= dict.fromkeys(map(ord, "\u2066\u2067\u2068\u2069"), None)


class Catalogue:
    """Translations from a JSON catalogue (:mod:`scorekeeper.web.offline.catalogue`)."""

    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        data = data or {}
        self.language = str(data.get("language", "en"))
        self.texts: dict[str, Any] = dict(data.get("messages", {}))
        self.plural: Callable[[int], int] = gettext.c2py(str(data.get("plural", "(n != 1)")))

    def gettext(self, message: str) -> str:
        text = self.texts.get(message)
        return text if isinstance(text, str) and text else message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        forms = self.texts.get(singular)
        if isinstance(forms, list) and forms:
            form = forms[min(self.plural(n), len(forms) - 1)]
            if form:
                return str(form)
        return singular if n == 1 else plural


CATALOGUE = Catalogue()


def use_catalogue(raw: str) -> str:
    """Say every later message in the catalogue's language; returns the language."""
    global CATALOGUE
    CATALOGUE = Catalogue(json.loads(raw))
    return CATALOGUE.language


def isolate(name: str) -> str:
    """A name set apart (FSI … PDI), as :func:`scorekeeper.text.locale.isolate_name` does."""
    return f"{FSI}{name.translate(BIDI_CONTROLS)}{PDI}"


def say(problem: Problem) -> str:
    """The problem in the catalogue's language, as
    :func:`scorekeeper.text.messages.translate_problem` says it on the server (names
    isolated; the engine's English when the problem has no template of its own)."""
    try:
        if english(problem.key, problem.params) != problem.message:
            return problem.message
        return render(problem.key, isolating(problem.params, isolate), CATALOGUE)
    except (KeyError, TypeError, ValueError):
        return problem.message


@dataclass(frozen=True)
class Pending:
    """One entry waiting to sync: ``record`` / ``redeal`` (an entry), ``edit`` (deal ``n``),
    ``undo``."""

    action: str
    entry: Entry | None
    n: int | None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Pending:
        action = str(data.get("action"))
        if action not in ("record", "redeal", "edit", "undo"):
            raise ValueError(f"unknown action {action!r}")
        entry = None if action == "undo" else entry_from_dict(data.get("entry"))
        n = data.get("n")
        return cls(action, entry, int(n) if n is not None else None)


Base = tuple[RuleSet, int, Sequence[str]]
"""What a game starts from: its rule set, first king and players."""


def apply(game: Game, log: list[Entry], base: Base, p: Pending) -> tuple[Game, list[Entry]]:
    """The game and its log after ``p``; raises the engine's refusal."""
    if p.action in ("record", "redeal"):
        assert p.entry is not None
        return game.record(p.entry), [*log, p.entry]
    if p.action == "undo":
        if not log:
            raise StateError.one("nothing_to_undo")
        return Game.replay(*base, log[:-1]), log[:-1]
    assert p.entry is not None and p.n is not None
    deal_positions = [i for i, e in enumerate(log) if isinstance(e, DealEntry)]
    if not 1 <= p.n <= len(deal_positions):
        message = f"There is no deal {p.n} to correct."  # a phone's own slip: no template
        raise StateError([Problem("no_such_deal", message)])
    changed = list(log)
    changed[deal_positions[p.n - 1]] = p.entry
    return Game.replay(*base, changed), changed


def table_base(base: Base, log: Sequence[Entry], p: Pending) -> Base:
    """At a club night's table, the first deal names the first king, the player dealt the
    7♥ (R2), as the server's store does: a first deal recorded must say who it was; a
    correction of the first deal may change him."""
    if not isinstance(p.entry, DealEntry):
        return base
    if p.action == "record" and not log:
        king = named_first_king(p.entry)
    elif p.action == "edit" and p.n == 1 and log and isinstance(log[0], DealEntry):
        king = p.entry.king if p.entry.king is not None else base[1]
    else:
        return base
    return (base[0], king, base[2]) if isinstance(king, int) and 0 <= king <= 3 else base


def step(
    game: Game, log: list[Entry], base: Base, table: bool, p: Pending
) -> tuple[Game, list[Entry], Base]:
    """:func:`apply`, after a table's first deal has named the first king."""
    if table:
        named = table_base(base, log, p)
        if named != base:
            base = named
            game = Game.replay(*base, log)
    game, log = apply(game, log, base, p)
    return game, log, base


def problems_of(error: RulesError) -> list[dict[str, Any]]:
    return [{**p.as_dict(), "message": say(p)} for p in error.problems]


def check(raw: str) -> str:
    """Replay ``game`` (its stored ``log``), then its ``pending`` entries, then ``entry``.

    Answer ``{"ok": true, "state", "screen"?, "deal"?, "first_king_open"}``
    (``screen``, without ``entry`` only: :func:`projection.project`, what every
    offline screen draws;
    ``deal``: the entry's deal as scored, for a record or an edit;
    ``first_king_open``: a club night's table whose next deal must say who was
    dealt the 7♥), or ``{"ok": false, "status": 422 | 409, "errors": [...], "at": i}``
    where ``at`` is the pending entry refused (None: ``entry`` itself).

    ``game.first_king_from_deal`` (a table, whose first deal names the first
    king) makes a first deal without ``king`` a refusal, as the server's form.
    """
    request = json.loads(raw)
    replayed = Replay.start(request["game"])
    at: int | None = None
    try:
        for index, data in enumerate(request.get("pending", [])):
            at = index
            replayed.step(Pending.from_dict(data), data.get("entry_id"))
        at = None
        answer: dict[str, Any] = {"ok": True}
        wanted = request.get("entry")
        if wanted:
            pending = Pending.from_dict(wanted)
            replayed.step(pending, wanted.get("entry_id"))
            answer["deal"] = replayed.deal_of(pending)
    except RulesError as error:
        status = 409 if isinstance(error, StateError) else 422
        return json.dumps({"ok": False, "status": status, "errors": problems_of(error), "at": at})
    # The screen is for a question about the game (no entry): a Save needs only the verdict.
    return json.dumps({**answer, **replayed.answer(screen=not wanted)})


def screen(raw: str) -> str:
    """The game as this phone shows it: ``game``'s stored log, then the ``pending`` entries
    that still fit. One the engine refuses stops the replay (those after it wait behind
    it, as at sync): ``{"ok": true, "state", "screen", "first_king_open", "refused"}``,
    ``refused`` None or ``{"at", "status", "errors"}``; ``deals`` gives each pending
    entry's deal as scored (None for an undo or a redeal), by entry id."""
    request = json.loads(raw)
    replayed = Replay.start(request["game"])
    refused = None
    deals: dict[str, Any] = {}
    for index, data in enumerate(request.get("pending", [])):
        pending = Pending.from_dict(data)
        try:
            replayed.step(pending, data.get("entry_id"))
        except RulesError as error:
            status = 409 if isinstance(error, StateError) else 422
            refused = {"at": index, "status": status, "errors": problems_of(error)}
            break
        if data.get("entry_id"):
            deals[str(data["entry_id"])] = replayed.deal_of(pending)
    return json.dumps({"ok": True, **replayed.answer(), "refused": refused, "deals": deals})


@dataclass
class Replay:
    """A game being replayed: its start, its log with whose each entry is, and the game."""

    base: Base
    table: bool
    log: list[Owned]
    game: Game

    @classmethod
    def start(cls, stored: Mapping[str, Any]) -> Replay:
        base: Base = (
            RuleSet.from_dict(stored["rules"]),
            int(stored["first_king"]),
            stored["players"],
        )
        log = [Owned(entry_from_dict(e), None) for e in stored["log"]]
        game = Game.replay(*base, [o.entry for o in log])
        return cls(base, bool(stored.get("first_king_from_deal")), log, game)

    def step(self, p: Pending, entry_id: Any = None) -> None:
        """The game after ``p`` (made by outbox entry ``entry_id``); raises its refusal."""
        entries = [o.entry for o in self.log]
        self.game, changed, self.base = step(self.game, entries, self.base, self.table, p)
        owner = str(entry_id) if entry_id else None
        if p.action in ("record", "redeal"):
            self.log = [*self.log, Owned(changed[-1], owner)]
        elif p.action == "undo":
            self.log = self.log[:-1]
        else:  # a correction: the entry is changed, not whose it is
            self.log = [Owned(e, o.entry_id) for e, o in zip(changed, self.log, strict=True)]

    def deal_of(self, p: Pending) -> dict[str, Any] | None:
        """The deal ``p`` recorded or corrected, as scored."""
        if p.action == "record" and isinstance(p.entry, DealEntry):
            return self.game.deals[-1].to_dict()
        if p.action == "edit" and p.n is not None:
            return self.game.deals[p.n - 1].to_dict()
        return None

    def answer(self, screen: bool = True) -> dict[str, Any]:
        first_king_open = self.table and not self.log
        answer = {"state": self.game.to_dict(), "first_king_open": first_king_open}
        if screen:
            answer["screen"] = project(self.game, self.log, first_king_open)
        return answer
