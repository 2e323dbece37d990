"""Club nights: the round clock's length, set by the director (None: no clock; the
board counts each round down from its ``drawn_at``, which every round already keeps).

Revision ID: 0012_round_clock
Revises: 0011_event_draw
Create Date: 2026-12-04

Hand-checked against scorekeeper/store/events/models.py (Event.round_minutes).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0012_round_clock"
down_revision = "0011_event_draw"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("events", sa.Column("round_minutes", sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table("events") as batch:
        batch.drop_column("round_minutes")
