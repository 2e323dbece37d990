"""Exactly-once entries: the id a phone gives a write, kept with its revision.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

Hand-checked against scorekeeper/store/models.py (Revision.entry_id, request_hash).
A batch operation, so that SQLite (which cannot add a constraint to a table)
rebuilds the table; PostgreSQL alters it in place.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("revisions") as batch:
        batch.add_column(sa.Column("entry_id", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("request_hash", sa.String(length=64), nullable=True))
        batch.create_unique_constraint("uq_revisions_game_entry_id", ["game_id", "entry_id"])


def downgrade():
    with op.batch_alter_table("revisions") as batch:
        batch.drop_constraint("uq_revisions_game_entry_id", type_="unique")
        batch.drop_column("request_hash")
        batch.drop_column("entry_id")
