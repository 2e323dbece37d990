"""Circles: groups of players across games, their members, seats, games and ratings.

Revision ID: 0004
Revises: 0002
Create Date: 2027-01-15

Hand-checked against scorekeeper/store/circles/models.py (tests/store/test_models.py
compares the migrated schema with the models).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "circles",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("edit_token_hash", sa.String(length=64), nullable=False),
        sa.Column("ratings", sa.Boolean(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "circle_members",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("circle_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("name_key", sa.String(length=160), nullable=False),
        sa.Column("colour", sa.String(length=7), nullable=True),
        sa.Column("emoji", sa.String(length=16), nullable=True),
        sa.Column("mu", sa.Float(), nullable=True),
        sa.Column("sigma", sa.Float(), nullable=True),
        sa.Column("sums", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["circle_id"], ["circles.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("circle_id", "name_key", name="uq_circle_members_name"),
    )
    op.create_index("ix_circle_members_circle", "circle_members", ["circle_id"])
    op.create_table(
        "circle_games",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("circle_id", sa.String(length=32), nullable=False),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("facts", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["circle_id"], ["circles.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )
    op.create_index("ix_circle_games_circle", "circle_games", ["circle_id", "played_at"])
    op.create_table(
        "circle_seats",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=True),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("share", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id", "seat"],
            ["seats.game_id", "seats.seat"],
            ondelete="CASCADE",
            name="fk_circle_seats_seat",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["circle_games.game_id"], ondelete="CASCADE", name="fk_circle_seats_game"
        ),
        sa.ForeignKeyConstraint(["member_id"], ["circle_members.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )
    op.create_index("ix_circle_seats_member", "circle_seats", ["member_id"])
    op.create_table(
        "circle_ratings",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("circle_id", sa.String(length=32), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("sequence", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["circle_id"], ["circles.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["member_id"], ["circle_members.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ix_circle_ratings_member", "circle_ratings", ["circle_id", "member_id", "sequence"]
    )


def downgrade():
    op.drop_index("ix_circle_ratings_member", table_name="circle_ratings")
    op.drop_table("circle_ratings")
    op.drop_index("ix_circle_seats_member", table_name="circle_seats")
    op.drop_table("circle_seats")
    op.drop_index("ix_circle_games_circle", table_name="circle_games")
    op.drop_table("circle_games")
    op.drop_index("ix_circle_members_circle", table_name="circle_members")
    op.drop_table("circle_members")
    op.drop_table("circles")
