"""The database and its care: statement helpers, the schema upgrade, SQLite checkpoints, backups, private files."""
