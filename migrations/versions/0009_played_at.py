"""A deal keeps the time it was played: the phone's clock at Save, and its UTC offset.

Revision ID: 0009_played_at
Revises: 0008_events3
Create Date: 2026-12-03

Hand-checked against scorekeeper/store/models.py (LogEntry.played_at, played_offset).
Both columns are nullable: entries recorded before, and entries sent without a time,
show the time they were recorded.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0009_played_at"
down_revision = "0008_events3"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column(
        "log_entries", sa.Column("played_at", sa.DateTime(timezone=True), nullable=True)
    )
    op.add_column("log_entries", sa.Column("played_offset", sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table("log_entries") as batch:
        batch.drop_column("played_offset")
        batch.drop_column("played_at")
