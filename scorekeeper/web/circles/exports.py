"""A circle as CSV (one row per finished game, one column per member)."""

from __future__ import annotations

import csv
import io

from scorekeeper.store.circles import services
from scorekeeper.web.paper.csv import cell


def circle_csv(circle: services.CircleData) -> str:
    """Date, game id, then each member's final total (empty when he did not play), the
    winners' names, and for a partnership game (R9.5) its teams: there each partner's total
    is his team's, the one result the team earned, and the winners are the winning team."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    members = list(circle.members)
    writer.writerow(["date", "game", *(cell(m.name) for m in members), "winners", "teams"])
    names = circle.names
    for game in services.linked_games(circle):
        if not game.finished:
            continue
        totals = {m: game.totals[s] for s, m in enumerate(game.members)}
        winners = [names.get(m, "") for s, m in enumerate(game.members) if game.places[s] == 1]
        writer.writerow(
            [
                game.played_at.date().isoformat(),
                game.game_id,
                *(totals.get(m.id, "") for m in members),
                cell(" & ".join(winners)),
                cell(teams(game, names)),
            ]
        )
    return out.getvalue()


def teams(game: services.LinkedGame, names: dict[int, str]) -> str:
    """A partnership game's two teams, partners sitting opposite (R9.5): ``Rana & Omar v
    Sami & Lina``; empty for a game of four players each on his own."""
    if not game.team:
        return ""
    side = [names.get(game.members[s], "") for s in range(4)]
    return f"{side[0]} & {side[2]} v {side[1]} & {side[3]}"
