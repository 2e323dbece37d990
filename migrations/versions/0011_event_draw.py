"""Club nights: how the rounds are drawn (``avoid_repeats``, ``swiss`` or ``rotation``;
the nights created before keep drawing to avoid repeats, as they did).

Revision ID: 0011_event_draw
Revises: 0010_event_co_director
Create Date: 2026-12-04

Hand-checked against scorekeeper/store/events/models.py (Event.draw).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0011_event_draw"
down_revision = "0010_event_co_director"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column(
        "events",
        sa.Column("draw", sa.String(length=16), nullable=False, server_default="avoid_repeats"),
    )


def downgrade():
    with op.batch_alter_table("events") as batch:
        batch.drop_column("draw")
