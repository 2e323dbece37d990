"""Circles in the database: create one, its links and members, its games, its numbers.

Used by the JSON API and the pages alike. A circle's id is its view link (96
random bits, like a game's); its edit token (256 bits) is stored only as a
SHA-256 hash and can be replaced (revoking every edit link). A circle's
token gives no right over its games, nor a game's token over its circle.

Reading a circle (:func:`load_circle`) costs one query for its version when
that version was read before: the circle and its members (each with the
running sums of his games, :mod:`.stats`) are kept by ``(id, version)``, and
so are the statistics and the table computed from them. Every change bumps
the version. No page reads every game: the all-time numbers come from the
kept sums, a month's or a year's from the shares kept per seat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar, cast

from flask import current_app
from sqlalchemy import bindparam, case, delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from scorekeeper.extensions import db
from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.game import Game
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games
from scorekeeper.store.cache import LRUCache
from scorekeeper.store.circles.errors import (
    CircleNotFound,
    CircleProblem,
    CircleRefusal,
    MemberNotFound,
)
from scorekeeper.store.circles.facts import game_facts
from scorekeeper.store.circles.hooks import (
    CIRCLES,
    LINKS,
    MEMBERS,
    RATINGS,
    SEATS,
    bump_version,
    move_shares,
    refresh_ratings,
)
from scorekeeper.store.circles.input import (
    MEMBERS_MAX,
    clean_circle_name,
    clean_colour,
    clean_emoji,
    clean_member_names,
    name_key,
)
from scorekeeper.store.circles.ratings import MIN_GAMES
from scorekeeper.store.circles.stats import Result, from_sums, summed, table_row
from scorekeeper.store.models import utcnow
from scorekeeper.store.snapshot import LoadedGame
from scorekeeper.store.tokens import hash_matches, hash_token, is_game_id, new_edit_token
from scorekeeper.store.tokens import new_game_id as new_circle_id
from scorekeeper.store.transactions import write_transaction

__all__ = [
    "CircleData",
    "CircleNotFound",
    "LinkedGame",
    "CircleRefusal",
    "MemberNotFound",
    "MemberRow",
    "attach_game",
    "circle_table",
    "create_circle",
    "detach_game",
    "linked_games",
    "load_circle",
    "member_results",
    "member_stats",
    "replace_edit_token",
    "start_game",
    "token_matches",
]

T = TypeVar("T")
CACHE_KEY = "scorekeeper.circles"
HEAD = select(CIRCLES.c.version, CIRCLES.c.edit_token_hash).where(
    CIRCLES.c.id == bindparam("circle_id")
)
PERIODS = ("all", "year", "month")


@dataclass(frozen=True)
class MemberRow:
    """A member, with his current rating (None before his first rated game) and his sums."""

    id: int
    name: str
    colour: str | None
    emoji: str | None
    mu: float | None
    sigma: float | None
    sums: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """The sums of his finished games' shares (:mod:`.stats`): never changed in place."""

    @property
    def games(self) -> int:
        """His finished games in the circle."""
        return int(self.sums.get("games", 0))


@dataclass(frozen=True)
class LinkedGame:
    """A game of the circle: when it started, whether it is finished, the member at each
    seat and, once finished, each seat's final total and place."""

    game_id: str
    played_at: datetime
    finished: bool
    members: tuple[int, int, int, int]
    totals: tuple[int | None, ...] = (None, None, None, None)
    places: tuple[int | None, ...] = (None, None, None, None)
    team: bool = False
    """A partnership game (R9.5): its totals and places are its teams', one per team."""


@dataclass(frozen=True)
class CircleData:
    """A circle as stored at one version: its members (with their sums), not its games."""

    id: str
    name: str
    ratings: bool
    rules: dict[str, Any]
    version: int
    created_at: datetime
    members: tuple[MemberRow, ...]
    latest_rules: dict[str, Any] | None = None
    """The house rules of the game started last in the circle (None before any)."""

    def member(self, member_id: int) -> MemberRow:
        for member in self.members:
            if member.id == member_id:
                return member
        raise MemberNotFound(member_id)

    def member_named(self, name: str) -> MemberRow | None:
        return next((m for m in self.members if name_key(m.name) == name_key(name)), None)

    @property
    def keys(self) -> set[str]:
        """The members' names as the circle compares them (:func:`.input.name_key`)."""
        return {name_key(m.name) for m in self.members}

    @property
    def names(self) -> dict[int, str]:
        return {m.id: m.name for m in self.members}

    def usual_rules(self) -> RuleSet:
        """The house rules of the circle's latest game, else those it was created with."""
        for candidate in (self.latest_rules, self.rules):
            if candidate:
                try:
                    return RuleSet.from_dict(candidate)
                except RulesError:
                    continue
        return RuleSet()


class CircleCache(LRUCache[tuple[Any, ...], Any]):
    """Circles read, and what was computed from them, by (id, version, …)."""


def _cache() -> CircleCache:
    cache: CircleCache = current_app.extensions.setdefault(CACHE_KEY, CircleCache(512))
    return cache


# --- reading ------------------------------------------------------------------------------


def head(circle_id: str) -> tuple[int, str]:
    """(version, edit-token hash); :class:`CircleNotFound`."""
    if not is_game_id(circle_id):
        raise CircleNotFound(circle_id)
    row = db.session().connection().execute(HEAD, {"circle_id": circle_id}).first()
    if row is None:
        raise CircleNotFound(circle_id)
    return int(row[0]), str(row[1])


def circle_exists(circle_id: str) -> bool:
    try:
        head(circle_id)
    except CircleNotFound:
        return False
    return True


def token_matches(circle_id: str, token: str) -> bool:
    """Whether ``token`` is this circle's edit token (constant time; False for no circle)."""
    try:
        _version, stored = head(circle_id)
    except CircleNotFound:
        hash_matches(hash_token(""), token)
        return False
    return hash_matches(stored, token)


def load_circle(circle_id: str) -> CircleData:
    """The circle with its members; one query when its version was read before."""
    version, _hash = head(circle_id)
    key = ("circle", circle_id, version)
    cached = _cache().get(key)
    if cached is None:
        cached = _read(db.session().connection(), circle_id)
        _cache().put(("circle", circle_id, cached.version), cached)
    assert isinstance(cached, CircleData)
    return cached


def _read(connection: Connection, circle_id: str) -> CircleData:
    """The circle, its members with their sums, and its latest game's rules: three queries,
    however many games it has."""
    circle = connection.execute(select(CIRCLES).where(CIRCLES.c.id == circle_id)).first()
    if circle is None:
        raise CircleNotFound(circle_id)
    members = connection.execute(
        select(MEMBERS).where(MEMBERS.c.circle_id == circle_id).order_by(MEMBERS.c.id)
    ).all()
    latest = connection.execute(
        select(LINKS.c.facts)
        .where(LINKS.c.circle_id == circle_id)
        .order_by(LINKS.c.played_at.desc(), LINKS.c.game_id.desc())
        .limit(1)
    ).scalar_one_or_none()
    return CircleData(
        id=circle.id,
        name=circle.name,
        ratings=bool(circle.ratings),
        rules=dict(circle.rules or {}),
        version=int(circle.version),
        created_at=_aware(circle.created_at),
        members=tuple(
            MemberRow(m.id, m.name, m.colour, m.emoji, m.mu, m.sigma, dict(m.sums or {}))
            for m in members
        ),
        latest_rules=(latest or {}).get("rules"),
    )


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _four(values: Sequence[Any]) -> tuple[Any, Any, Any, Any]:
    return (values[0], values[1], values[2], values[3])


def _cached(key: tuple[Any, ...], compute: Callable[[], T]) -> T:
    """What ``compute`` gives, kept under ``key`` (which holds the circle's version)."""
    found = _cache().get(key)
    if found is None:
        found = compute()
        _cache().put(key, found)
    return cast(T, found)


def linked_games(circle: CircleData, limit: int | None = None) -> list[LinkedGame]:
    """The circle's games, finished or not, in the order they were started (the ``limit``
    latest only, newest first, when given)."""
    return list(
        _cached(("games", circle.id, circle.version, limit), lambda: _games(circle.id, limit))
    )


def _games(circle_id: str, limit: int | None) -> tuple[LinkedGame, ...]:
    connection = db.session().connection()
    query = select(LINKS.c.game_id, LINKS.c.played_at, LINKS.c.finished, LINKS.c.facts).where(
        LINKS.c.circle_id == circle_id
    )
    if limit is None:
        query = query.order_by(LINKS.c.played_at, LINKS.c.game_id)
    else:
        query = query.order_by(LINKS.c.played_at.desc(), LINKS.c.game_id.desc()).limit(limit)
    links = connection.execute(query).all()
    seats: dict[str, list[tuple[int, int | None, int | None]]] = {}
    seat_rows = connection.execute(
        select(SEATS.c.game_id, SEATS.c.member_id, SEATS.c.total, SEATS.c.place)
        .where(SEATS.c.game_id.in_([g for g, _at, _done, _facts in links]))
        .order_by(SEATS.c.game_id, SEATS.c.seat)
    )
    for game_id, member_id, total, place in seat_rows:
        seats.setdefault(game_id, []).append((int(member_id), total, place))
    out = []
    for game_id, at, done, facts in links:
        rows = seats.get(game_id, [(0, None, None)] * 4)
        out.append(
            LinkedGame(
                game_id,
                _aware(at),
                bool(done),
                _four([m for m, _t, _p in rows]),
                tuple(t for _m, t, _p in rows),
                tuple(p for _m, _t, p in rows),
                bool((facts or {}).get("partnership")),
            )
        )
    return tuple(out)


def games_in_circles(game_ids: Sequence[str]) -> set[str]:
    """Those of ``game_ids`` that belong to a circle (any circle: a game is in one at most)."""
    if not game_ids:
        return set()
    rows = (
        db.session()
        .connection()
        .execute(select(LINKS.c.game_id).where(LINKS.c.game_id.in_(list(game_ids))))
    )
    return {str(g) for (g,) in rows}


def period_start(period: str, now: datetime | None = None) -> datetime | None:
    """The first moment of this month or this year (UTC); None for all time.

    >>> period_start("month", datetime(2026, 3, 17, 9, tzinfo=UTC)).isoformat()
    '2026-03-01T00:00:00+00:00'
    """
    now = now or datetime.now(UTC)
    if period == "month":
        return datetime(now.year, now.month, 1, tzinfo=UTC)
    if period == "year":
        return datetime(now.year, 1, 1, tzinfo=UTC)
    return None


def _finished_seats(circle_id: str, since: datetime | None) -> list[Any]:
    """Conditions on ``SEATS`` joined with ``LINKS``: the circle's finished games since then."""
    where = [LINKS.c.circle_id == circle_id, LINKS.c.finished.is_(True)]
    if since is not None:
        where.append(LINKS.c.played_at >= since)
    return where


def member_results(circle: CircleData, member_id: int) -> list[Result]:
    """The member's finished games in order: total and place (streaks, running total)."""
    key = ("results", circle.id, circle.version, member_id)
    return list(_cached(key, lambda: tuple(r for r, _share in _results(circle, member_id))))


def _results(
    circle: CircleData, member_id: int, since: datetime | None = None, shares: bool = False
) -> list[tuple[Result, dict[str, Any] | None]]:
    columns = [LINKS.c.played_at, LINKS.c.game_id, SEATS.c.total, SEATS.c.place]
    if shares:
        columns.append(SEATS.c.share)
    rows = (
        db.session()
        .connection()
        .execute(
            select(*columns)
            .join(LINKS, LINKS.c.game_id == SEATS.c.game_id)
            .where(SEATS.c.member_id == member_id, *_finished_seats(circle.id, since))
            .order_by(LINKS.c.played_at, LINKS.c.game_id)
        )
    )
    out = []
    for row in rows:
        result = Result(_aware(row[0]), str(row[1]), int(row[2] or 0), int(row[3] or 0))
        out.append((result, row[4] if shares else None))
    return out


def member_stats(circle: CircleData, member_id: int, period: str = "all") -> dict[str, Any]:
    """A member's statistics over the period's finished games (kept per circle version).

    All time: his kept sums, and his places in order for the streaks (two
    narrow reads however many games). This month or year: the shares his
    games of the period keep, added up.
    """
    member = circle.member(member_id)
    since = period_start(period)

    def compute() -> dict[str, Any]:
        if since is None:
            results, sums = member_results(circle, member_id), member.sums
        else:
            rows = _results(circle, member_id, since, shares=True)
            results, sums = [r for r, _ in rows], summed(s for _, s in rows if s)
        wins = [r.place == 1 for r in results]
        return from_sums(member_id, sums, wins, circle.names)

    return dict(_cached(("stats", circle.id, circle.version, member_id, since), compute))


def circle_table(circle: CircleData, period: str = "all") -> list[dict[str, Any]]:
    """The members ranked: by rating when the circle keeps ratings, else by wins, win rate
    and average total. A rating shows from a member's fifth finished game."""
    since = period_start(period)
    key = ("table", circle.id, circle.version, since)
    return list(_cached(key, lambda: tuple(_table(circle, since))))


def _period_sums(circle: CircleData, since: datetime) -> dict[int, dict[str, int]]:
    """Games, wins and the sum of totals per member over the period: one grouped query."""
    rows = (
        db.session()
        .connection()
        .execute(
            select(
                SEATS.c.member_id,
                func.count(),
                func.sum(case((SEATS.c.place == 1, 1), else_=0)),
                func.sum(SEATS.c.total),
            )
            .join(LINKS, LINKS.c.game_id == SEATS.c.game_id)
            .where(*_finished_seats(circle.id, since))
            .group_by(SEATS.c.member_id)
        )
    )
    return {
        int(m): {"games": int(n), "wins": int(w or 0), "total": int(t or 0)} for m, n, w, t in rows
    }


def _table(circle: CircleData, since: datetime | None) -> list[dict[str, Any]]:
    period = _period_sums(circle, since) if since is not None else {}
    rows = []
    for member in circle.members:
        row: dict[str, Any] = {"id": member.id, "name": member.name}
        row |= {"colour": member.colour, "emoji": member.emoji}
        row |= table_row(member.sums if since is None else period.get(member.id, {}))
        rated = circle.ratings and member.mu is not None and member.sigma is not None
        if rated and member.games >= MIN_GAMES:
            row["rating"] = {"mu": member.mu, "sigma": member.sigma}
        else:
            row["rating"] = None
        rows.append(row)
    rows.sort(key=_rank_key)
    return rows


def _rank_key(row: dict[str, Any]) -> tuple[Any, ...]:
    rating = row["rating"]
    return (
        rating is None,
        -(rating["mu"] - 3 * rating["sigma"]) if rating else 0,
        row["games"] == 0,
        -row["wins"],
        -(row["win_rate"] or 0),
        -(row["average_total"] or 0),
        row["name"].casefold(),
    )


def rating_history(circle: CircleData, member_id: int) -> list[tuple[int, float, float]]:
    """The member's (sequence, mu, sigma) after each of his rated games."""

    def compute() -> tuple[tuple[int, float, float], ...]:
        rows = (
            db.session()
            .connection()
            .execute(
                select(RATINGS.c.sequence, RATINGS.c.mu, RATINGS.c.sigma)
                .where(RATINGS.c.circle_id == circle.id, RATINGS.c.member_id == member_id)
                .order_by(RATINGS.c.sequence)
            )
        )
        return tuple((int(s), float(mu), float(sigma)) for s, mu, sigma in rows)

    return list(_cached(("history", circle.id, circle.version, member_id), compute))


# --- writing ------------------------------------------------------------------------------


def create_circle(
    name: object, members: object, ratings: bool = False, rules: RuleSet | None = None
) -> tuple[CircleData, str]:
    """A new circle with its first members, and its edit token (shown this once)."""
    clean_name = clean_circle_name(name)
    names = clean_member_names(members)
    with write_transaction() as session:
        circle_id, token, _ids = insert_circle(
            session.connection(), clean_name, names, ratings, rules or RuleSet()
        )
    return load_circle(circle_id), token


def insert_circle(
    connection: Connection, name: str, names: Sequence[str], ratings: bool, rules: RuleSet
) -> tuple[str, str, list[int]]:
    """Write a new circle and its members (checked already) in the caller's transaction:
    (its id, its edit token, its members' ids in the order of ``names``)."""
    token, circle_id, now = new_edit_token(), new_circle_id(), utcnow()
    connection.execute(
        insert(CIRCLES),
        {
            "id": circle_id,
            "name": name,
            "edit_token_hash": hash_token(token),
            "ratings": bool(ratings),
            "rules": rules.to_dict(),
            "version": 1,
            "created_at": now,
            "updated_at": now,
        },
    )
    return circle_id, token, _add_members(connection, circle_id, names)


def _add_members(connection: Connection, circle_id: str, names: Sequence[str]) -> list[int]:
    """Every new member of a circle comes through here, within the cap (:func:`check_room`)."""
    if names:
        check_room(connection, circle_id, len(names))
    now = utcnow()
    ids = []
    for name in names:
        result = connection.execute(
            insert(MEMBERS),
            {"circle_id": circle_id, "name": name, "name_key": name_key(name)}
            | {"created_at": now, "sums": {}},
        )
        key = result.inserted_primary_key
        assert key is not None
        ids.append(int(key[0]))
    return ids


def check_room(connection: Connection, circle_id: str, adding: int) -> None:
    """Refuse (422, nothing written) ``adding`` new members the circle has no room for.

    The circle's row is locked first (PostgreSQL; SQLite's writers already take
    turns), so that two writers cannot both take its last place.
    """
    _lock(connection, circle_id)
    count = connection.execute(
        select(func.count()).select_from(MEMBERS).where(MEMBERS.c.circle_id == circle_id)
    ).scalar_one()
    _refuse_beyond_cap(count, adding)


def _lock(connection: Connection, circle_id: str) -> None:
    """Lock the circle's row until the transaction ends (PostgreSQL; a no-op on SQLite)."""
    connection.execute(select(CIRCLES.c.id).where(CIRCLES.c.id == circle_id).with_for_update())


def check_room_for(circle: CircleData, names: Sequence[str]) -> None:
    """Refuse (422) players whose new names would take the circle past its member cap:
    a club night is refused when it is held, not half way through a draw."""
    _refuse_beyond_cap(len(circle.members), len({name_key(n) for n in names} - circle.keys))


def _refuse_beyond_cap(count: int, adding: int) -> None:
    if count + adding > MEMBERS_MAX:
        raise CircleRefusal.one(
            "members_full", "members", count=count, adding=adding, max=MEMBERS_MAX
        )


def replace_edit_token(circle_id: str) -> str:
    """Revoke every edit link of the circle: a new token, shown this once."""
    token = new_edit_token()
    with write_transaction() as session:
        head(circle_id)
        session.connection().execute(
            update(CIRCLES)
            .where(CIRCLES.c.id == circle_id)
            .values(edit_token_hash=hash_token(token))
        )
    return token


def update_member(circle_id: str, member_id: int, colour: object, emoji: object) -> MemberRow:
    """A member's colour and emoji (None removes them)."""
    colour, emoji = clean_colour(colour), clean_emoji(emoji)
    load_circle(circle_id).member(member_id)
    with write_transaction() as session:
        set_looks(session.connection(), circle_id, member_id, colour, emoji)
    return load_circle(circle_id).member(member_id)


def set_looks(
    connection: Connection, circle_id: str, member_id: int, colour: str | None, emoji: str | None
) -> None:
    """Write a member's colour and emoji (checked already) in the caller's transaction."""
    connection.execute(
        update(MEMBERS)
        .where(MEMBERS.c.id == member_id, MEMBERS.c.circle_id == circle_id)
        .values(colour=colour, emoji=emoji)
    )
    bump_version(connection, circle_id)


def set_ratings(circle_id: str, enabled: bool) -> None:
    """Keep ratings (rated from the whole history at once) or stop keeping them."""
    with write_transaction() as session:
        connection = session.connection()
        head(circle_id)
        connection.execute(
            update(CIRCLES).where(CIRCLES.c.id == circle_id).values(ratings=bool(enabled))
        )
        refresh_ratings(connection, circle_id)
        bump_version(connection, circle_id)


def start_game(
    circle_id: str, players: object, first_king: int, rules: RuleSet
) -> tuple[LoadedGame, str]:
    """A new game of the circle: ``players`` are members' names (a new name becomes a new
    member). Returns the game and its own edit token, as for any game. The game and its
    link are written in one transaction: a refused link (a full circle) leaves no game."""
    circle = load_circle(circle_id)
    new = games.new_game_rows(players if isinstance(players, list) else [], first_king, rules)
    choices = [_member_choice(circle, name) for name in new.loaded.players]
    link_game(circle_id, new.loaded, choices, new)
    return new.loaded, new.token


def _member_choice(circle: CircleData, name: str) -> int | None:
    member = circle.member_named(name)
    return None if member is None else member.id


def attach_game(circle_id: str, game_id: str, choices: Sequence[int | None]) -> LoadedGame:
    """Link an existing game to the circle: ``choices[s]`` is the member who sat at seat
    ``s``, or None for a new member named as the seat. A game is in one circle at most."""
    loaded = games.load_game(game_id)
    if len(choices) != 4:
        raise CircleRefusal.one("seats_count", "members")
    link_game(circle_id, loaded, choices)
    return loaded


def link_game(
    circle_id: str,
    loaded: LoadedGame,
    choices: Sequence[int | None],
    new: games.NewGameRows | None = None,
) -> None:
    """Link ``loaded`` to the circle, seat by seat, in one transaction (which first
    inserts the game itself when it is ``new``)."""
    circle = load_circle(circle_id)
    known = {m.id for m in circle.members}
    problems = [
        CircleProblem("member_unknown", f"members.{s}", {"member": c})
        for s, c in enumerate(choices)
        if c is not None and c not in known
    ]
    if problems:
        raise CircleRefusal(problems)
    try:
        with write_transaction() as session:
            if new is not None:
                new.insert(session)
            connection = session.connection()
            linked = connection.execute(
                select(LINKS.c.circle_id).where(LINKS.c.game_id == loaded.id)
            ).first()
            if linked is not None:
                raise CircleRefusal.one("game_in_circle", "game", same=linked[0] == circle_id)
            members = _resolve(connection, circle, loaded.players, choices)
            insert_link(connection, circle_id, loaded.id, loaded.created_at, loaded.game, members)
    except IntegrityError:
        raise CircleRefusal.one("game_in_circle", "game", same=False) from None


def _resolve(
    connection: Connection, circle: CircleData, names: Sequence[str], choices: Sequence[int | None]
) -> list[int]:
    """Each seat's member id; a seat without a choice becomes a new member named as the seat
    (or the member of that name, if the circle has one)."""
    out: list[int] = []
    for name, choice in zip(names, choices, strict=True):
        out.append(_member_or_new(connection, circle, name) if choice is None else choice)
    if len(set(out)) != 4:
        raise CircleRefusal.one("member_twice", "members")
    return out


def _member_or_new(connection: Connection, circle: CircleData, name: str) -> int:
    """The member of that name, else a new member.

    ``circle`` was read before this transaction took the circle's row: a writer at the
    same moment may have added the name since. So a name it lacks is looked up again
    once the row is locked, rather than added twice (refused by the database).
    """
    existing = circle.member_named(name)
    if existing is not None:
        return existing.id
    _lock(connection, circle.id)
    found = connection.execute(
        select(MEMBERS.c.id).where(
            MEMBERS.c.circle_id == circle.id, MEMBERS.c.name_key == name_key(name)
        )
    ).scalar_one_or_none()
    return int(found) if found is not None else _add_members(connection, circle.id, [name])[0]


def link_new_game(connection: Connection, circle_id: str, loaded: LoadedGame) -> None:
    """Link a game created in the caller's transaction (a club night's table) to the
    circle: each seat is the member of that name, or a new member."""
    circle = load_circle(circle_id)
    members = _resolve(connection, circle, loaded.players, [None] * 4)
    insert_link(connection, circle_id, loaded.id, loaded.created_at, loaded.game, members)


def relink_seat(connection: Connection, circle_id: str, game_id: str, seat: int, name: str) -> None:
    """A club night's substitute took ``seat`` of an unfinished table: the seat is now the
    member of that name (or a new member)."""
    member = _member_or_new(connection, load_circle(circle_id), name)
    bump_version(connection, circle_id)
    connection.execute(
        update(SEATS)
        .where(SEATS.c.game_id == game_id, SEATS.c.seat == seat)
        .values(member_id=member)
    )


def unlink_unplayed_game(connection: Connection, circle_id: str, game_id: str) -> None:
    """A club night's table drawn again before any deal: its game leaves the circle."""
    bump_version(connection, circle_id)
    connection.execute(delete(SEATS).where(SEATS.c.game_id == game_id))
    connection.execute(delete(LINKS).where(LINKS.c.game_id == game_id))


def insert_link(
    connection: Connection,
    circle_id: str,
    game_id: str,
    played_at: datetime,
    game: Game,
    members: Sequence[int],
) -> None:
    """Link a game to the circle in the caller's transaction: ``members[s]`` sat at seat
    ``s``; a finished game moves its members' sums and the ratings."""
    bump_version(connection, circle_id)
    facts = game_facts(game)
    connection.execute(
        insert(LINKS),
        {
            "game_id": game_id,
            "circle_id": circle_id,
            "played_at": played_at,
            "finished": game.finished,
            "facts": facts,
        },
    )
    connection.execute(
        insert(SEATS),
        [{"game_id": game_id, "seat": s, "member_id": m} for s, m in enumerate(members)],
    )
    if game.finished:
        move_shares(connection, game_id, False, facts)
        refresh_ratings(connection, circle_id)


def detach_game(circle_id: str, game_id: str) -> None:
    """Remove a game from the circle (the game itself stays); ratings are rated again."""
    with write_transaction() as session:
        connection = session.connection()
        head(circle_id)
        found = connection.execute(
            select(LINKS.c.finished).where(
                LINKS.c.game_id == game_id, LINKS.c.circle_id == circle_id
            )
        ).first()
        if found is None:
            raise CircleRefusal.one("game_not_in_circle", "game")
        bump_version(connection, circle_id)
        if found[0]:
            move_shares(connection, game_id, True, None)
        connection.execute(delete(SEATS).where(SEATS.c.game_id == game_id))
        connection.execute(delete(LINKS).where(LINKS.c.game_id == game_id))
        connection.execute(delete(RATINGS).where(RATINGS.c.game_id == game_id))
        if found[0]:
            refresh_ratings(connection, circle_id)


def recompute_ratings(circle_id: str) -> None:
    """Rate the circle's whole history again (what every change to a finished game does)."""
    with write_transaction() as session:
        head(circle_id)
        refresh_ratings(session.connection(), circle_id)
        bump_version(session.connection(), circle_id)
