"""A partnership game is one result per team in its circle: the circles' facts version 2.

Revision ID: 0014_team_results
Revises: 0013_rematch
Create Date: 2026-12-04

Data only (no schema change). A partnership game's facts (``circle_games.facts``) kept
each partner's own total; version 2 (scorekeeper/store/circles/facts.py) keeps the team's
total for both partners in ``totals`` and each one's own in ``own_totals``. For each such
game this rewrites its facts, and for a finished one its seats' totals and shares and its
members' running sums (the total, its square, and ``team_games``), so that the kept sums
stay equal to those counted afresh. Places were already the team's: ratings do not move.
Downgrade leaves the data as it is (the team's total is what a partner earned).
"""

from typing import Any

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0014_team_results"
down_revision = "0013_rematch"
branch_labels = None
depends_on = None

LINKS = sa.table(
    "circle_games",
    sa.column("game_id", sa.String),
    sa.column("finished", sa.Boolean),
    sa.column("facts", sa.JSON),
)
SEATS = sa.table(
    "circle_seats",
    sa.column("game_id", sa.String),
    sa.column("seat", sa.Integer),
    sa.column("member_id", sa.Integer),
    sa.column("total", sa.Integer),
    sa.column("share", sa.JSON),
)
MEMBERS = sa.table("circle_members", sa.column("id", sa.Integer), sa.column("sums", sa.JSON))


def upgrade():
    restate_team_games(op.get_bind())


def downgrade():
    pass


def restate_team_games(bind: Any) -> int:
    """Every partnership game's facts, seats and members' sums as version 2 has them; how
    many games were restated."""
    rows = bind.execute(sa.select(LINKS.c.game_id, LINKS.c.finished, LINKS.c.facts)).all()
    restated = 0
    for game_id, finished, facts in rows:
        facts = dict(facts or {})
        if not facts.get("partnership") or int(facts.get("v", 1)) >= 2 or "totals" not in facts:
            continue
        own = [int(t) for t in facts["totals"]]
        team = [own[0] + own[2], own[1] + own[3]] * 2
        facts.update(v=2, totals=team, own_totals=own)
        bind.execute(LINKS.update().where(LINKS.c.game_id == game_id).values(facts=facts))
        if finished:
            _restate_seats(bind, game_id, team)
        restated += 1
    return restated


def _restate_seats(bind: Any, game_id: str, team: list[int]) -> None:
    seats = bind.execute(
        sa.select(SEATS.c.seat, SEATS.c.member_id, SEATS.c.share).where(SEATS.c.game_id == game_id)
    ).all()
    for seat, member_id, share in seats:
        if not share:
            continue
        old, new = dict(share), dict(share)
        new.update(total=team[seat], total_sq=team[seat] ** 2, team_games=1)
        bind.execute(
            SEATS.update()
            .where(SEATS.c.game_id == game_id, SEATS.c.seat == seat)
            .values(total=team[seat], share=new)
        )
        sums = bind.execute(sa.select(MEMBERS.c.sums).where(MEMBERS.c.id == member_id)).scalar()
        sums = dict(sums or {})
        for key in ("total", "total_sq", "team_games"):
            sums[key] = int(sums.get(key, 0)) + int(new[key]) - int(old.get(key, 0))
        bind.execute(MEMBERS.update().where(MEMBERS.c.id == member_id).values(sums=sums))
