"""A write to a circle's game refreshes what the circle keeps of it, in the same transaction.

:func:`game_changed` is called by the store's one write path
(:func:`scorekeeper.store.game_store.apply_change`) after every record, edit,
redeal or undo. For a game in no circle it costs one primary-key lookup.
For a circle's game it bumps the circle's version (the key of every cache
of the circle; on PostgreSQL the row's lock also makes the circle's writes
take turns), stores the game's new facts and, when the game is or was
finished, takes the game's old shares from its members' sums and adds the
new ones (:func:`move_shares`), and rates the circle's history again from
the start.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from scorekeeper.store import models as game_models
from scorekeeper.store.circles import models
from scorekeeper.store.circles.facts import game_facts
from scorekeeper.store.circles.ratings import RatedGame, rate_history
from scorekeeper.store.circles.stats import add, seat_share
from scorekeeper.store.snapshot import LoadedGame

CIRCLES = models.Circle.__table__
LINKS = models.CircleGame.__table__
SEATS = models.CircleSeat.__table__
MEMBERS = models.Member.__table__
RATINGS = models.RatingPoint.__table__

CIRCLE_OF = select(LINKS.c.circle_id, LINKS.c.finished).where(
    LINKS.c.game_id == bindparam("game_id")
)
SET_FACTS = (
    update(LINKS)
    .where(LINKS.c.game_id == bindparam("of_game"))
    .values(
        facts=bindparam("new_facts", type_=LINKS.c.facts.type),
        finished=bindparam("new_finished", type_=LINKS.c.finished.type),
    )
)


def game_changed(session: Session, loaded: LoadedGame) -> None:
    """The game ``loaded`` was just written: refresh its circle, if it has one."""
    connection = session.connection()
    row = connection.execute(CIRCLE_OF, {"game_id": loaded.id}).first()
    if row is None:
        return
    circle_id, was_finished = str(row[0]), bool(row[1])
    finished = loaded.game.finished
    bump_version(connection, circle_id)
    facts = game_facts(loaded.game)
    params = {"of_game": loaded.id, "new_facts": facts, "new_finished": finished}
    connection.execute(SET_FACTS, params)
    if was_finished or finished:
        move_shares(connection, loaded.id, was_finished, facts if finished else None)
        refresh_ratings(connection, circle_id)


SEATS_OF = (
    select(SEATS.c.seat, SEATS.c.member_id, SEATS.c.share)
    .where(SEATS.c.game_id == bindparam("game_id"))
    .order_by(SEATS.c.seat)
)
SET_SEAT = (
    update(SEATS)
    .where(SEATS.c.game_id == bindparam("of_game"), SEATS.c.seat == bindparam("of_seat"))
    .values(
        total=bindparam("new_total", type_=SEATS.c.total.type),
        place=bindparam("new_place", type_=SEATS.c.place.type),
        share=bindparam("new_share", type_=SEATS.c.share.type),
    )
)
SET_SUMS = (
    update(MEMBERS)
    .where(MEMBERS.c.id == bindparam("of_member"))
    .values(sums=bindparam("new_sums", type_=MEMBERS.c.sums.type))
)


def move_shares(
    connection: Connection, game_id: str, counted: bool, facts: dict[str, Any] | None
) -> None:
    """The game's seats now hold the shares of ``facts`` (None: the game counts for nothing);
    its members' sums lose the old shares (when ``counted``) and gain the new ones.

    The circle's version must be bumped first in the same transaction: on
    PostgreSQL that row's lock keeps two writes from adding to the same sums at once.
    """
    seats = connection.execute(SEATS_OF, {"game_id": game_id}).all()
    members = [int(m) for _seat, m, _share in seats]
    if len(members) != 4:
        return
    new = [seat_share(facts, s, members) if facts else None for s in range(4)]
    sums: dict[int, dict[str, Any]] = dict(
        connection.execute(
            select(MEMBERS.c.id, MEMBERS.c.sums).where(MEMBERS.c.id.in_(members)).with_for_update()
        ).all()
    )
    for seat, member, old in seats:
        current = sums.get(member) or {}
        if counted and old:
            current = add(current, old, -1)
        if new[seat] is not None:
            current = add(current, new[seat])
        sums[member] = current
    connection.execute(SET_SUMS, [{"of_member": m, "new_sums": sums[m]} for m in members])
    connection.execute(
        SET_SEAT,
        [
            {
                "of_game": game_id,
                "of_seat": seat,
                "new_total": facts["totals"][seat] if facts else None,
                "new_place": facts["places"][seat] if facts else None,
                "new_share": new[seat],
            }
            for seat in range(4)
        ],
    )


def bump_version(connection: Connection, circle_id: str) -> None:
    """A new version of the circle: every cache of its old version is out of date."""
    connection.execute(
        update(CIRCLES)
        .where(CIRCLES.c.id == circle_id)
        .values(version=CIRCLES.c.version + 1, updated_at=game_models.utcnow())
    )


def rated_games(connection: Connection, circle_id: str) -> list[RatedGame]:
    """The circle's finished games as matches, in the order they were played."""
    links = connection.execute(
        select(LINKS.c.game_id, LINKS.c.facts)
        .where(LINKS.c.circle_id == circle_id, LINKS.c.finished.is_(True))
        .order_by(LINKS.c.played_at, LINKS.c.game_id)
    ).all()
    seats: dict[str, list[int]] = {}
    rows = connection.execute(
        select(SEATS.c.game_id, SEATS.c.seat, SEATS.c.member_id)
        .join(LINKS, LINKS.c.game_id == SEATS.c.game_id)
        .where(LINKS.c.circle_id == circle_id, LINKS.c.finished.is_(True))
    )
    for game_id, seat, member_id in rows:
        seats.setdefault(game_id, [0, 0, 0, 0])[seat] = member_id
    out: list[RatedGame] = []
    for game_id, facts in links:
        members, places = seats.get(game_id), facts.get("places")
        if members is None or not places:
            continue
        partnership = bool(facts.get("partnership"))
        out.append(RatedGame(game_id, _four(members), _four(places), partnership))
    return out


def _four(values: list[Any]) -> tuple[int, int, int, int]:
    return (int(values[0]), int(values[1]), int(values[2]), int(values[3]))


def refresh_ratings(connection: Connection, circle_id: str) -> None:
    """Rate the circle's whole history again; store the history and each member's rating."""
    enabled = connection.execute(
        select(CIRCLES.c.ratings).where(CIRCLES.c.id == circle_id)
    ).scalar_one_or_none()
    connection.execute(delete(RATINGS).where(RATINGS.c.circle_id == circle_id))
    connection.execute(
        update(MEMBERS).where(MEMBERS.c.circle_id == circle_id).values(mu=None, sigma=None)
    )
    if not enabled:
        return
    current, history = rate_history(rated_games(connection, circle_id))
    if history:
        connection.execute(
            insert(RATINGS),
            [
                {
                    "circle_id": circle_id,
                    "member_id": p.member_id,
                    "game_id": p.game_id,
                    "sequence": p.sequence,
                    "mu": p.mu,
                    "sigma": p.sigma,
                }
                for p in history
            ],
        )
    if current:
        connection.execute(
            update(MEMBERS)
            .where(MEMBERS.c.id == bindparam("member"))
            .values(mu=bindparam("new_mu"), sigma=bindparam("new_sigma")),
            [{"member": m, "new_mu": mu, "new_sigma": s} for m, (mu, s) in current.items()],
        )
