"""Initial schema: games, seats, the deal log and its revisions.

Revision ID: 0001
Revises:
Create Date: 2026-05-01

Hand-checked against scorekeeper/store/models.py (tests/store/test_models.py
compares the two). Only JSON, strings, integers, booleans and timestamps:
the same on SQLite and PostgreSQL.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "games",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("first_king", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("edit_token_hash", sa.String(length=64), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("summary", sa.JSON(), nullable=False),
        sa.CheckConstraint("first_king BETWEEN 0 AND 3", name="ck_games_first_king"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_games_finished", "games", ["finished"])
    op.create_index("ix_games_updated_at", "games", ["updated_at"])

    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.CheckConstraint("seat BETWEEN 0 AND 3", name="ck_seats_seat"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )

    op.create_table(
        "log_entries",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("position >= 0", name="ck_log_entries_position"),
        sa.CheckConstraint("kind IN ('deal', 'redeal', 'misdeal')", name="ck_log_entries_kind"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        # One entry per position: the last line of defence against two writers.
        sa.UniqueConstraint("game_id", "position", name="uq_log_entries_game_position"),
    )

    op.create_table(
        "revisions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("n", sa.Integer(), nullable=True),
        sa.Column("action", sa.String(length=10), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.CheckConstraint(
            "action IN ('record', 'edit', 'undo', 'redeal')", name="ck_revisions_action"
        ),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_revisions_game_n", "revisions", ["game_id", "n"])
    op.create_index("ix_revisions_game_version", "revisions", ["game_id", "version"])


def downgrade():
    op.drop_table("revisions")
    op.drop_table("log_entries")
    op.drop_table("seats")
    op.drop_index("ix_games_updated_at", table_name="games")
    op.drop_index("ix_games_finished", table_name="games")
    op.drop_table("games")
