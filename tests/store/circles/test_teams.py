"""A partnership game (R9.5) is one result per team in a circle: both partners count the
team's total and place, marked as a team game, in the statistics, the table and the CSV."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from flask import Flask

from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games
from scorekeeper.store.circles import services
from scorekeeper.store.circles.facts import FACTS_VERSION, game_facts
from scorekeeper.store.circles.stats import GameRow, member_statistics, played
from scorekeeper.web.circles.exports import circle_csv
from scorekeeper.web.circles.present import table_view
from tests.store.circles.helpers import SHORT_GAME, SHORT_TOTALS, play
from tests.store.circles.test_services import NAMES, new_circle, stats

TEAM = RuleSet(kingdoms=1, partnership=True)


def team_circle() -> services.CircleData:
    """Rana & Omar (250 + 0) beat Sami & Lina (−75 − 175) in one partnership game."""
    circle = new_circle()
    loaded, _ = services.start_game(circle.id, NAMES, 0, TEAM)
    play(loaded.id, SHORT_GAME)
    return services.load_circle(circle.id)


def test_r9_5_both_partners_count_the_teams_total_and_place_as_a_team_game(app: Flask) -> None:
    assert_team_result(team_circle())


def assert_team_result(circle: services.CircleData) -> None:
    rana, omar = stats(circle.id, "Rana"), stats(circle.id, "Omar")
    sami, lina = stats(circle.id, "Sami"), stats(circle.id, "Lina")
    assert rana["average_total"] == omar["average_total"] == 250
    assert sami["average_total"] == lina["average_total"] == -250
    assert (rana["wins"], omar["wins"], sami["wins"], lina["wins"]) == (1, 1, 0, 0)
    assert {r["team_games"] for r in (rana, omar, sami, lina)} == {1}


def test_r9_5_partners_level_on_everything_share_their_place_in_the_table(app: Flask) -> None:
    rows = {row["name"]: row["place"] for row in table_view(team_circle())}
    assert rows == {"Rana": 1, "Omar": 1, "Sami": 3, "Lina": 3}


def test_r9_5_the_csv_gives_each_partner_the_teams_total_and_names_the_teams(
    app: Flask,
) -> None:
    header, row = list(csv.reader(io.StringIO(circle_csv(team_circle()))))
    by_name = dict(zip(header[2:6], row[2:6], strict=True))
    assert by_name == {"Rana": "250", "Sami": "-250", "Omar": "250", "Lina": "-250"}
    assert row[6:] == ["Rana & Omar", "Rana & Omar v Sami & Lina"]


def test_a_game_of_four_on_their_own_keeps_each_players_total(app: Flask) -> None:
    circle = new_circle()
    loaded, _ = services.start_game(circle.id, NAMES, 0, RuleSet(kingdoms=1))
    play(loaded.id, SHORT_GAME)
    header, row = list(csv.reader(io.StringIO(circle_csv(services.load_circle(circle.id)))))
    assert row[2:6] == [str(t) for t in SHORT_TOTALS] and row[7] == ""
    assert stats(circle.id, "Rana")["team_games"] == 0


def test_the_kept_sums_equal_the_fresh_count_for_a_team_game(app: Flask) -> None:
    """The statistics kept as the game was written equal those counted afresh from its
    facts (version 2: the teams' totals)."""
    circle = team_circle()
    (linked,) = services.linked_games(circle)
    loaded = games.load_game(linked.game_id)
    facts = game_facts(loaded.game)
    assert facts["v"] == FACTS_VERSION == 2 and facts["own_totals"] == SHORT_TOTALS
    row = GameRow(linked.game_id, linked.played_at, True, linked.members, facts)
    for member in circle.members:
        fresh = member_statistics(member.id, played([row]), circle.names)
        kept = stats(circle.id, member.name)
        assert {k: fresh[k] for k in ("games", "wins", "average_total", "team_games")} == {
            k: kept[k] for k in ("games", "wins", "average_total", "team_games")
        }


def test_r9_5_a_players_page_says_how_many_of_his_games_were_as_a_team(app: Flask) -> None:
    circle = team_circle()
    rana = next(m for m in circle.members if m.name == "Rana")
    page = app.test_client().get(f"/circles/{circle.id}/members/{rana.id}").get_data(True)
    assert 'data-testid="stat-team-games">(1 as a team)' in page.translate(
        {0x2068: None, 0x2069: None}
    )


def test_r9_5_the_migration_restates_a_team_game_kept_before_as_one_result_per_team(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game recorded before facts version 2 (each partner's own total) is restated by
    migration 0011: its facts, seats and members' sums then equal a game recorded now."""
    from scorekeeper.extensions import db
    from scorekeeper.store.circles import facts as facts_module

    with monkeypatch.context() as old_code:
        old_code.setattr(facts_module, "FACTS_VERSION", 1)
        old_code.setattr(facts_module, "result_totals", lambda game: list(game.totals))
        circle = team_circle()
    assert stats(circle.id, "Rana")["average_total"] == 250  # his own total, as before
    assert stats(circle.id, "Omar")["average_total"] == 0
    migration = _migration("0014_team_results")
    assert migration.restate_team_games(db.session.connection()) == 1
    db.session.commit()
    app.extensions.pop(services.CACHE_KEY, None)  # the version did not move: a new process
    assert_team_result(circle)
    header, row = list(csv.reader(io.StringIO(circle_csv(services.load_circle(circle.id)))))
    assert row[2:6] == ["250", "-250", "250", "-250"]
    assert migration.restate_team_games(db.session.connection()) == 0  # once only


def _migration(name: str) -> Any:
    import importlib.util

    from scorekeeper.paths import PROJECT_ROOT

    path = PROJECT_ROOT / "migrations" / "versions" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
