"""PostgreSQL tells every app process when a game's or an event's version changes.

A trigger on ``games`` and ``events`` sends ``NOTIFY scorekeeper_versions`` at
each commit that changes a version (scorekeeper/store/version_feed.py), so an
unchanged poll is answered without a query. Nothing on SQLite. The SQL is a copy of
version_feed.py's, not an import: a migration keeps the schema it made,
whatever the code becomes.

Revision ID: 0007_version_notices
Revises: 0006_event_changes
Create Date: 2026-12-01
"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0007_version_notices"
down_revision = "0006_event_changes"
branch_labels = None
depends_on = None

FUNCTION = """
CREATE OR REPLACE FUNCTION scorekeeper_notify_version() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('scorekeeper_versions', TG_ARGV[0] || ' ' || OLD.id || ' -');
    ELSIF TG_OP = 'INSERT' OR NEW.version IS DISTINCT FROM OLD.version THEN
        PERFORM pg_notify('scorekeeper_versions', TG_ARGV[0] || ' ' || NEW.id || ' ' || NEW.version);
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql
"""
TABLES = {"games": "game", "events": "event"}


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(FUNCTION)
    for table, kind in TABLES.items():
        op.execute(
            f"CREATE TRIGGER {table}_notify_version AFTER INSERT OR UPDATE OR DELETE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION scorekeeper_notify_version('{kind}')"
        )


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    for table in TABLES:
        op.execute(f"DROP TRIGGER IF EXISTS {table}_notify_version ON {table}")
    op.execute("DROP FUNCTION IF EXISTS scorekeeper_notify_version()")
