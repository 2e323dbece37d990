"""Rate-limit counters in the database, shared by every gunicorn worker.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01

Hand-checked against scorekeeper/store/models.py (RateCounter).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "rate_counters",
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    op.create_index("ix_rate_counters_expires_at", "rate_counters", ["expires_at"])


def downgrade():
    op.drop_index("ix_rate_counters_expires_at", table_name="rate_counters")
    op.drop_table("rate_counters")
