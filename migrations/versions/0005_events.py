"""Club nights: events, their players, rounds and tables (each table a game).

Revision ID: 0005
Revises: 0002
Create Date: 2026-12-02

Hand-checked against scorekeeper/store/events_models.py.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "events",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("round_kind", sa.String(length=8), nullable=False),
        sa.Column("scoring", sa.String(length=8), nullable=False),
        sa.Column("places", sa.JSON(), nullable=False),
        sa.Column("partnership", sa.Boolean(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("circle_id", sa.String(length=32), nullable=True),
        sa.Column("director_token_hash", sa.String(length=64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("closed", sa.Boolean(), nullable=False),
        sa.CheckConstraint("round_kind IN ('game', 'kingdom')", name="ck_events_round_kind"),
        sa.CheckConstraint("scoring IN ('totals', 'places')", name="ck_events_scoring"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "event_players",
        sa.Column("event_id", sa.String(length=32), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("joined_round", sa.Integer(), nullable=False),
        sa.Column("left_round", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("event_id", "position"),
    )
    op.create_table(
        "event_rounds",
        sa.Column("event_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.String(length=40), nullable=False),
        sa.Column("sitting_out", sa.JSON(), nullable=False),
        sa.Column("locked", sa.Boolean(), nullable=False),
        sa.Column("drawn_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("event_id", "number"),
    )
    op.create_table(
        "event_tables",
        sa.Column("event_id", sa.String(length=32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("totals", sa.JSON(), nullable=False),
        sa.Column("trix_firsts", sa.JSON(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("event_id", "round", "number"),
        sa.UniqueConstraint("game_id"),
    )
    op.create_index(
        "ix_event_tables_event_version", "event_tables", ["event_id", "version"]
    )


def downgrade():
    op.drop_index("ix_event_tables_event_version", table_name="event_tables")
    op.drop_table("event_tables")
    op.drop_table("event_rounds")
    op.drop_table("event_players")
    op.drop_table("events")
