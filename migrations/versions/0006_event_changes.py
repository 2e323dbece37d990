"""Club nights: the director's changes to a round when a player leaves in the middle of it.

Revision ID: 0006_event_changes
Revises: 0005
Create Date: 2026-12-01

Hand-checked against scorekeeper/store/events_models.py (EventChange).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0006_event_changes"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "event_changes",
        sa.Column("event_id", sa.String(length=32), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("player", sa.String(length=40), nullable=False),
        sa.Column("substitute", sa.String(length=40), nullable=True),
        sa.Column("table", sa.Integer(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("after_deals", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("seed", sa.String(length=40), nullable=True),
        sa.Column("tables", sa.JSON(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("kind IN ('replace', 'redraw')", name="ck_event_changes_kind"),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("event_id", "position"),
    )
    op.create_index("ix_event_changes_game_id", "event_changes", ["game_id"], unique=False)


def downgrade():
    op.drop_index("ix_event_changes_game_id", table_name="event_changes")
    op.drop_table("event_changes")
