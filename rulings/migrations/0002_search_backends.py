"""Full-text search structures that depend on the database engine.

SQLite: an FTS5 table over rulings_searchindex (external content; rebuilt after each import).
PostgreSQL: a generated tsvector column with a GIN index, and pg_trgm for similarity on titles.
"""

from django.db import migrations

SQLITE_FORWARD = [
    "CREATE VIRTUAL TABLE IF NOT EXISTS rulings_fts USING fts5("
    "title, names, body, content='rulings_searchindex', content_rowid='id', "
    "tokenize='porter unicode61 remove_diacritics 2')",
]
SQLITE_BACKWARD = ["DROP TABLE IF EXISTS rulings_fts"]

POSTGRES_FORWARD = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "ALTER TABLE rulings_searchindex ADD COLUMN tsv tsvector GENERATED ALWAYS AS ("
    "setweight(to_tsvector('english', coalesce(title, '')), 'A') || "
    "setweight(to_tsvector('english', coalesce(names, '')), 'B') || "
    "setweight(to_tsvector('english', coalesce(body, '')), 'C')) STORED",
    "CREATE INDEX rulings_searchindex_tsv ON rulings_searchindex USING GIN (tsv)",
    "CREATE INDEX rulings_searchindex_title_trgm ON rulings_searchindex USING GIN (title gin_trgm_ops)",
]
POSTGRES_BACKWARD = [
    "DROP INDEX IF EXISTS rulings_searchindex_title_trgm",
    "DROP INDEX IF EXISTS rulings_searchindex_tsv",
    "ALTER TABLE rulings_searchindex DROP COLUMN IF EXISTS tsv",
]


def run(statements_by_vendor):
    def apply(apps, schema_editor):
        for statement in statements_by_vendor.get(schema_editor.connection.vendor, []):
            schema_editor.execute(statement)

    return apply


class Migration(migrations.Migration):
    dependencies = [("rulings", "0001_initial")]

    operations = [
        migrations.RunPython(
            run({"sqlite": SQLITE_FORWARD, "postgresql": POSTGRES_FORWARD}),
            run({"sqlite": SQLITE_BACKWARD, "postgresql": POSTGRES_BACKWARD}),
        )
    ]
