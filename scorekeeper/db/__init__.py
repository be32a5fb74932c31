"""The database and its care: shared statement helpers, the schema upgrade, SQLite checkpoints, backups and private files."""
