"""The backup file of one game (JSON), and its validation on import.

Format ``scorekeeper.game`` version 1::

    {"format": "scorekeeper.game", "format_version": 1, "exported_at": "…",
     "id": "…", "version": 12, "created_at": "…", "updated_at": "…",
     "players": ["Rana", "Sami", "Omar", "Lina"], "first_king": 0, "rules": {…every field…},
     "log": [{"position": 0, "kind": "deal", "entry": {"contracts": [...], "captures": {...}},
              "created_at": "…", "played_at"?: "…", "revisions": [REVISION, …]}, …],
     "undone": [REVISION, …]}

A REVISION is ``{"position", "version", "action", "n", "at", "source",
"before", "after"}``: one write to one log position, as kept in the
database. ``log[i].revisions`` are the writes to position ``i``;
``undone`` holds those to positions that were undone and are no longer
in the log. Timestamps are ISO 8601 in UTC, except an entry's optional
``played_at``: the phone's clock at Save with its own UTC offset
(``2026-12-03T21:42:05+03:00``), kept as it was sent (files without it: the
entry shows the time it was recorded).

A write a phone named (API.md "Exactly-once entries") also carries
``"entry_id"`` and ``"request_hash"`` (the SHA-256 of what it asked for), so
that the restored game still answers a retry of it with the stored result
rather than writing it again. Both are optional: files made before they
existed, and writes nobody named, have neither.

:func:`parse_backup` checks a file in full (shape, players, rules, every
revision) and replays its log through the rules engine; anything wrong is
a :class:`~scorekeeper.rules.errors.MalformedError` (422) naming the field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from scorekeeper.rules.captures import is_seat
from scorekeeper.rules.errors import MalformedError, Problem, RulesError
from scorekeeper.rules.game import Game
from scorekeeper.rules.game_log import DealEntry, Entry, entry_from_dict
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.scoring import score_deal
from scorekeeper.store.game_store import GAME_WRITES_MAX
from scorekeeper.store.input import ENTRY_ID, check_storable, clean_players

FORMAT = "scorekeeper.game"
FORMAT_VERSION = 1
ACTIONS = ("record", "edit", "undo", "redeal")
SOURCE_MAX = 16
MAX_LOG = GAME_WRITES_MAX
"""Each log position was written once at least."""
MAX_REVISIONS = GAME_WRITES_MAX
WRITE_BYTES_MAX = 6 * 1024
"""The most one write adds to a backup, in either export (the API's JSON escapes every
character past ASCII, the page's file is indented): a redeal's note of 200 characters each
spelled ``\\ud83c\\udca1``, written in its log entry and its revision, with their
timestamps and entry id. tests/store/test_largest_game.py builds such a game."""
HEAD_BYTES_MAX = 16 * 1024
"""Everything else in a file: its players, rule set and timestamps."""
IMPORT_BYTES_MAX = HEAD_BYTES_MAX + GAME_WRITES_MAX * WRITE_BYTES_MAX
"""The largest backup an import reads: that of the largest game the app can hold."""
TOP_KEYS = {
    "format",
    "format_version",
    "exported_at",
    "id",
    "version",
    "created_at",
    "updated_at",
    "players",
    "first_king",
    "rules",
    "log",
    "undone",
}
LOG_KEYS = {"position", "kind", "entry", "created_at", "played_at", "revisions"}
REVISION_KEYS = {"position", "version", "action", "n", "at", "source", "before", "after"}
ONCE_KEYS = {"entry_id", "request_hash"}
REQUEST_HASH = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class RevisionData:
    """One stored revision, validated."""

    position: int
    version: int
    action: str
    n: int | None
    at: datetime
    source: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    entry_id: str | None = None
    request_hash: str | None = None


@dataclass(frozen=True)
class LogData:
    """One stored log entry, validated."""

    kind: str
    entry: Entry
    created_at: datetime
    played_at: datetime | None = None
    """The phone's clock at Save, with its own offset."""


@dataclass(frozen=True)
class Backup:
    """A backup file, checked and replayed: what an import writes."""

    version: int
    created_at: datetime
    updated_at: datetime
    players: list[str]
    first_king: int
    rules: RuleSet
    log: list[LogData]
    revisions: list[RevisionData]
    game: Game


# --- writing ---------------------------------------------------------------------------------


def timestamp(moment: datetime) -> str:
    """ISO 8601 in UTC: ``2025-05-01T21:07:00.123456+00:00``."""
    return moment.astimezone(UTC).isoformat()


def revision_dict(
    position: int,
    version: int,
    action: str,
    n: int | None,
    at: datetime,
    source: str,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    entry_id: str | None = None,
    request_hash: str | None = None,
) -> dict[str, Any]:
    """A REVISION of the file (its entry id and request hash only when a phone named it)."""
    revision = {
        "position": position,
        "version": version,
        "action": action,
        "n": n,
        "at": timestamp(at),
        "source": source,
        "before": before,
        "after": after,
    }
    if entry_id is not None and request_hash is not None:
        revision.update(entry_id=entry_id, request_hash=request_hash)
    return revision


# --- reading: the top level --------------------------------------------------------------------


def refuse(message: str, field: str | None = None, code: str = "backup_invalid") -> MalformedError:
    """A 422 refusal of the file, naming the field."""
    return MalformedError([Problem(code, message, None, field)])


def parse_backup(data: object) -> Backup:
    """Check a backup file in full and replay its log; :class:`MalformedError` (422) if wrong."""
    if not isinstance(data, Mapping):
        raise refuse("A backup must be a JSON object.", code="backup_shape")
    check_storable(data)  # a lone surrogate or a NUL, anywhere (names, notes, sources…)
    _check_format(data)
    _only(data, TOP_KEYS, None)
    rules = _rules(data.get("rules"))
    players = _players(data.get("players"))
    first_king = _int(data, "first_king", None, 0, 3)
    version = _int(data, "version", None, 1, 10**9)
    log = _log(_list(data, "log", None, MAX_LOG))
    game = _replay(rules, first_king, players, log)
    revisions = _all_revisions(data, len(log), version)
    _check_history(rules, revisions, game, log)
    return Backup(
        version=version,
        created_at=_moment(data, "created_at", None),
        updated_at=_moment(data, "updated_at", None),
        players=list(game.names),
        first_king=first_king,
        rules=rules,
        log=log,
        revisions=revisions,
        game=game,
    )


def _check_format(data: Mapping[str, Any]) -> None:
    if data.get("format") != FORMAT:
        raise refuse(
            f'This is not a scorekeeper backup: its "format" should be "{FORMAT}".',
            "format",
            "backup_format",
        )
    if data.get("format_version") != FORMAT_VERSION:
        raise refuse(
            f"This backup is in format version {data.get('format_version')!r}; this "
            f"scorekeeper reads version {FORMAT_VERSION}.",
            "format_version",
            "backup_format_version",
        )


def _rules(raw: object) -> RuleSet:
    try:
        return RuleSet.from_dict(raw)
    except RulesError as error:  # its fields already read "rules.…"
        raise _moved(error, None) from None


def _players(raw: object) -> list[str]:
    """The same checks as a new game's names (R1): the file may have been edited by hand."""
    try:
        return clean_players(raw)
    except RulesError as error:
        raise _moved(error, None) from None


def _replay(rules: RuleSet, first_king: int, players: list[str], log: list[LogData]) -> Game:
    """The game the log describes; the first entry the engine refuses is named."""
    try:
        game = Game.start(rules, first_king, players)
    except RulesError as error:
        raise _moved(error, None) from None
    for index, stored in enumerate(log):
        try:
            game = game.record(stored.entry)
        except RulesError as error:
            what = f"deal {game.deals_played + 1}" if stored.kind == "deal" else stored.kind
            message = f"Log entry {index + 1} ({what}) cannot be replayed: {error}"
            raise refuse(message, f"log.{index}", "backup_replay") from None
    return game


def _moved(error: RulesError, prefix: str | None) -> MalformedError:
    """The engine's error as a 422 on the file, its fields under ``prefix``."""
    moved = error.at(prefix) if prefix else error
    return MalformedError(moved.problems)


# --- reading: the log --------------------------------------------------------------------------


def _log(raw: list[Any]) -> list[LogData]:
    return [_log_entry(item, index) for index, item in enumerate(raw)]


def _log_entry(item: object, index: int) -> LogData:
    where = f"log.{index}"
    if not isinstance(item, Mapping):
        raise refuse(f"Log entry {index + 1} must be a JSON object.", where)
    _only(item, LOG_KEYS, where)
    if item.get("position", index) != index:
        claimed = item.get("position")
        raise refuse(f"Log entry {index + 1} says it is at position {claimed!r}.", where)
    entry = _entry(item.get("entry"), f"{where}.entry")
    kind = "deal" if isinstance(entry, DealEntry) else entry.kind
    if item.get("kind", kind) != kind:
        raise refuse(f"Log entry {index + 1} is a {kind}, not a {item.get('kind')!r}.", where)
    played = _moment(item, "played_at", where, keep_offset=True) if "played_at" in item else None
    return LogData(kind, entry, _moment(item, "created_at", where), played)


def _entry(raw: object, where: str) -> Entry:
    try:
        return entry_from_dict(raw)
    except RulesError as error:
        raise _moved(error, where) from None


# --- reading: revisions ------------------------------------------------------------------------


def _all_revisions(data: Mapping[str, Any], log_length: int, version: int) -> list[RevisionData]:
    """Every revision (log slots, then undone slots), each version at most once."""
    found: list[RevisionData] = []
    for index, item in enumerate(data["log"]):
        where = f"log.{index}.revisions"
        raw = _list(item, "revisions", f"log.{index}", MAX_REVISIONS, required=False)
        found += [_revision(r, f"{where}.{i}", version, index) for i, r in enumerate(raw)]
    raw_undone = _list(data, "undone", None, MAX_REVISIONS, required=False)
    for i, r in enumerate(raw_undone):
        revision = _revision(r, f"undone.{i}", version, None)
        if revision.position < log_length:
            raise refuse("An undone revision must be past the end of the log.", f"undone.{i}")
        found.append(revision)
    if len(found) > MAX_REVISIONS:
        raise refuse(f"A game keeps at most {MAX_REVISIONS} revisions.", "log")
    versions = [r.version for r in found]
    if len(set(versions)) != len(versions):
        raise refuse("Two revisions have the same version number.", "log")
    named = [r.entry_id for r in found if r.entry_id is not None]
    if len(set(named)) != len(named):
        raise refuse("Two revisions have the same entry id.", "log", "backup_entry_id")
    return sorted(found, key=lambda r: r.version)


def _revision(item: object, where: str, version: int, position: int | None) -> RevisionData:
    if not isinstance(item, Mapping):
        raise refuse("A revision must be a JSON object.", where)
    _only(item, REVISION_KEYS | ONCE_KEYS, where)
    at_position = _int(item, "position", where, 0, MAX_LOG)
    if position is not None and at_position != position:
        raise refuse(f"This revision belongs to position {at_position}, not {position}.", where)
    action = item.get("action")
    if action not in ACTIONS:
        raise refuse(f"A revision's action must be one of {', '.join(ACTIONS)}.", where)
    source = item.get("source")
    if not isinstance(source, str) or not 0 < len(source) <= SOURCE_MAX:
        raise refuse(f"A revision's source must be a short label (at most {SOURCE_MAX}).", where)
    n = item.get("n")
    if n is not None and not _is_int(n, 1, MAX_LOG):
        raise refuse("A revision's deal number must be a positive whole number or null.", where)
    return RevisionData(
        at_position,
        _int(item, "version", where, 2, version),
        action,
        n,
        _moment(item, "at", where),
        source,
        _side(item.get("before"), f"{where}.before"),
        _side(item.get("after"), f"{where}.after"),
        *_once(item, where),
    )


def _once(item: Mapping[str, Any], where: str) -> tuple[str | None, str | None]:
    """A revision's entry id and request hash: both or neither."""
    entry_id, request_hash = item.get("entry_id"), item.get("request_hash")
    if entry_id is None and request_hash is None:
        return None, None
    if not isinstance(entry_id, str) or not ENTRY_ID.fullmatch(entry_id):
        message = "A revision's entry_id must be 1 to 64 letters, digits, “-” or “_”."
        raise refuse(message, f"{where}.entry_id", "backup_entry_id")
    if not isinstance(request_hash, str) or not REQUEST_HASH.fullmatch(request_hash):
        message = "A revision with an entry_id needs its request_hash (64 hex digits)."
        raise refuse(message, f"{where}.request_hash", "backup_entry_id")
    return entry_id, request_hash


def _check_history(
    rules: RuleSet, revisions: list[RevisionData], game: Game, log: list[LogData]
) -> None:
    """A revision's scores are the engine's for its deal, and each log position's last
    revision is the deal as replayed: a file cannot carry a made-up history."""
    last: dict[int, RevisionData] = {}
    for revision in revisions:
        for side in (revision.before, revision.after):
            if side is not None and side.get("kind") == "deal":
                _check_scores(rules, side, revision)
        last[revision.position] = revision
    replayed = {deal.n: deal for deal in game.deals}
    for position, revision in last.items():
        after = revision.after
        if position >= len(log) or after is None or after.get("kind") != "deal":
            continue
        deal = replayed.get(after["n"])
        if deal is None or list(deal.scores) != after["scores"] or deal.king != after["king"]:
            message = f"The last revision of log entry {position + 1} is not the deal replayed."
            raise refuse(message, f"log.{position}.revisions", "backup_history")


def _check_scores(rules: RuleSet, side: dict[str, Any], revision: RevisionData) -> None:
    entry = entry_from_dict({"contracts": side["contracts"], "captures": side["captures"]})
    assert isinstance(entry, DealEntry)  # _side read it as a deal
    try:
        scores = list(score_deal(rules, entry.contracts, entry.captures))
    except RulesError:
        scores = None
    if scores != side["scores"]:
        message = f"Revision {revision.version}'s scores are not the ones its deal scores."
        raise refuse(message, f"log.{revision.position}.revisions", "backup_history")


def _side(raw: object, where: str) -> dict[str, Any] | None:
    """A revision's ``before``/``after``: null, a scored deal, or a redeal; canonical."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise refuse("A revision's before/after must be a JSON object or null.", where)
    if raw.get("kind") in ("redeal", "misdeal"):
        entry = _entry({k: v for k, v in raw.items() if k != "n"}, where)
        return {**entry.to_dict(), "n": None}
    _only(raw, {"kind", "n", "king", "contracts", "captures", "scores"}, where)
    deal = _entry({"contracts": raw.get("contracts"), "captures": raw.get("captures")}, where)
    scores = raw.get("scores")
    if not isinstance(scores, list) or len(scores) != 4 or not all(_is_int(s) for s in scores):
        raise refuse("A revision's scores must be 4 whole numbers.", f"{where}.scores")
    if not is_seat(raw.get("king")) or not _is_int(raw.get("n"), 1, MAX_LOG):
        raise refuse("A revision's deal needs its number and its king (a seat 0–3).", where)
    return {"kind": "deal", "n": raw["n"], "king": raw["king"], **deal.to_dict(), "scores": scores}


# --- reading: small values ---------------------------------------------------------------------


def _field(where: str | None, key: str) -> str:
    return key if where is None else f"{where}.{key}"


def _only(data: Mapping[str, Any], known: set[str], where: str | None) -> None:
    unknown = sorted(str(k) for k in data if k not in known)
    if unknown:
        message = f"“{unknown[0]}” is not part of a scorekeeper backup here."
        raise refuse(message, _field(where, unknown[0]), "backup_unknown_field")


def _is_int(value: object, low: int = -(10**9), high: int = 10**9) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _int(data: Mapping[str, Any], key: str, where: str | None, low: int, high: int) -> int:
    value = data.get(key)
    if not isinstance(value, int) or not _is_int(value, low, high):
        raise refuse(f"“{key}” must be a whole number from {low} to {high}.", _field(where, key))
    return value


def _list(
    data: Mapping[str, Any], key: str, where: str | None, most: int, required: bool = True
) -> list[Any]:
    value = data.get(key, None if required else [])
    if not isinstance(value, list):
        raise refuse(f"“{key}” must be a list.", _field(where, key))
    if len(value) > most:
        raise refuse(f"“{key}” has {len(value)} items; a game has at most {most}.", key)
    return value


def _moment(
    data: Mapping[str, Any], key: str, where: str | None, keep_offset: bool = False
) -> datetime:
    raw = data.get(key)
    try:
        moment = datetime.fromisoformat(raw) if isinstance(raw, str) else None
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        message = f"“{key}” must be a date and time with its time zone (ISO 8601)."
        raise refuse(message, _field(where, key), "backup_timestamp")
    return moment if keep_offset else moment.astimezone(UTC)
