"""Rematch made once: a finished game remembers its rematch (the new game's id, and its
edit token sealed for the phones that may edit the finished game).

Revision ID: 0013_rematch
Revises: 0012_round_clock
Create Date: 2026-12-04

Hand-checked against scorekeeper/store/models.py (Game.rematch_id, Game.rematch_seal).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0013_rematch"
down_revision = "0012_round_clock"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("games", sa.Column("rematch_id", sa.String(length=32), nullable=True))
    op.add_column("games", sa.Column("rematch_seal", sa.Text(), nullable=True))


def downgrade():
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rematch_seal")
        batch.drop_column("rematch_id")
