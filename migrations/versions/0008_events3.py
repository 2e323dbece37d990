"""Club nights: who was not drawn in a round because they had left, and the seats given
away for them in rounds drawn before they left.

Revision ID: 0008_events3
Revises: 0007_version_notices
Create Date: 2026-12-02

Hand-checked against scorekeeper/store/events_models.py (EventRound.left_out,
EventChange.left_in).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0008_events3"
down_revision = "0007_version_notices"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("event_rounds", sa.Column("left_out", sa.JSON(), nullable=True))
    op.add_column("event_changes", sa.Column("left_in", sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table("event_changes") as batch:
        batch.drop_column("left_in")
    with op.batch_alter_table("event_rounds") as batch:
        batch.drop_column("left_out")
