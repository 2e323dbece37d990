"""Club nights: the co-director's link (its token's hash, the director's token sealed
for it, and how many were given); what a bye is worth and what ranks the players (the
nights created before keep byes worth nothing, ranked by points).

Revision ID: 0010_event_co_director
Revises: 0009_played_at
Create Date: 2026-12-03

Hand-checked against scorekeeper/store/events/models.py (Event.co_director_hash,
Event.co_director_seal, Event.co_directors, Event.byes, Event.bye_points, Event.ranking).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0010_event_co_director"
down_revision = "0009_played_at"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("events", sa.Column("co_director_hash", sa.String(length=64), nullable=True))
    op.add_column("events", sa.Column("co_director_seal", sa.Text(), nullable=True))
    op.add_column(
        "events",
        sa.Column("co_directors", sa.Integer(), nullable=False, server_default="0"),
    )
    op.add_column(
        "events", sa.Column("byes", sa.String(length=8), nullable=False, server_default="none")
    )
    op.add_column(
        "events", sa.Column("bye_points", sa.Integer(), nullable=False, server_default="0")
    )
    op.add_column(
        "events",
        sa.Column("ranking", sa.String(length=8), nullable=False, server_default="points"),
    )


def downgrade():
    with op.batch_alter_table("events") as batch:
        batch.drop_column("ranking")
        batch.drop_column("bye_points")
        batch.drop_column("byes")
        batch.drop_column("co_directors")
        batch.drop_column("co_director_seal")
        batch.drop_column("co_director_hash")
