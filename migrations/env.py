import logging
from logging.config import fileConfig

import sqlalchemy as sa
from alembic import context
from flask import current_app
from sqlalchemy.pool import NullPool

# this is the Alembic Config object, which provides
# access to the values within the .ini file in use.
config = context.config

# Interpret the config file for Python logging, except when the app applies migrations
# itself at start-up (scorekeeper.db.schema), where the host's logging must stay as it is.
if not config.attributes.get("skip_logging_config"):
    fileConfig(config.config_file_name)
logger = logging.getLogger("alembic.env")


def get_engine():
    return current_app.extensions["migrate"].db.engine


def get_engine_url():
    try:
        return get_engine().url.render_as_string(hide_password=False).replace("%", "%%")
    except AttributeError:
        return str(get_engine().url).replace("%", "%%")


# add your model's MetaData object here
# for 'autogenerate' support
# from myapp import mymodel
# target_metadata = mymodel.Base.metadata
config.set_main_option("sqlalchemy.url", get_engine_url())
target_db = current_app.extensions["migrate"].db

# other values from the config, defined by the needs of env.py,
# can be acquired:
# my_important_option = config.get_main_option("my_important_option")
# ... etc.


def get_metadata():
    if hasattr(target_db, "metadatas"):
        return target_db.metadatas[None]
    return target_db.metadata


def run_migrations_offline():
    """Run migrations in 'offline' mode.

    This configures the context with just a URL
    and not an Engine, though an Engine is acceptable
    here as well.  By skipping the Engine creation
    we don't even need a DBAPI to be available.

    Calls to context.execute() here emit the given string to the
    script output.

    """
    url = config.get_main_option("sqlalchemy.url")
    context.configure(url=url, target_metadata=get_metadata(), literal_binds=True)

    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online():
    """Run migrations in 'online' mode.

    In this scenario we need to create an Engine
    and associate a connection with the context.

    """

    # this callback is used to prevent an auto-migration from being generated
    # when there are no changes to the schema
    # reference: http://alembic.zzzcomputing.com/en/latest/cookbook.html
    def process_revision_directives(context, revision, directives):
        if getattr(config.cmd_opts, "autogenerate", False):
            script = directives[0]
            if script.upgrade_ops.is_empty():
                directives[:] = []
                logger.info("No changes in schema detected.")

    conf_args = current_app.extensions["migrate"].configure_args
    if conf_args.get("process_revision_directives") is None:
        conf_args["process_revision_directives"] = process_revision_directives

    connectable = get_engine()
    sqlite = connectable.dialect.name == "sqlite"
    if sqlite:
        connectable = sqlite_migration_engine(connectable)

    try:
        with connectable.connect() as connection:
            context.configure(
                connection=connection,
                target_metadata=get_metadata(),
                # Each migration commits with its own version number, or not at all: an upgrade
                # killed halfway leaves the database at the last migration it finished, and the
                # next start goes on from there. PostgreSQL's DDL is transactional as it is;
                # SQLite's is too, once its driver lets SQLAlchemy begin every transaction
                # (see sqlite_migration_engine).
                transactional_ddl=True,
                transaction_per_migration=True,
                on_version_apply=check_foreign_keys if sqlite else (),
                **conf_args,
            )

            with context.begin_transaction():
                context.run_migrations()
    finally:
        if sqlite:
            connectable.dispose()


def sqlite_migration_engine(app_engine):
    """Return an engine of its own for migrating the app's SQLite database, whose every migration is
    one transaction, DDL included, with foreign keys off.

    Python's sqlite3 driver begins a transaction only before INSERT, UPDATE and DELETE, so the
    CREATE, DROP and ALTER statements of a migration each committed at once: a start killed
    inside a migration that rebuilds a table left half of it behind (a `_alembic_tmp_` table),
    which no later start could get past. Here the driver begins nothing, and SQLAlchemy's own
    BEGIN starts each migration's transaction, as SQLAlchemy's documentation of the pysqlite
    driver shows ("Serializable isolation / Savepoints / Transactional DDL").

    Foreign keys are off because a migration that rebuilds a table (Alembic's batch mode) drops
    the old one, and with them on, SQLite deletes every row that refers to a dropped table's
    rows (ON DELETE CASCADE) first; they can only be turned off outside a transaction, so this
    engine's connections start with them off, and `check_foreign_keys` checks every migration
    before it commits. The app's own engine keeps them on.
    """
    engine = sa.create_engine(app_engine.url, poolclass=NullPool)
    busy_timeout = int(current_app.config.get("SQLITE_BUSY_TIMEOUT", 15)) * 1000

    @sa.event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=OFF")
        cursor.execute(f"PRAGMA busy_timeout={busy_timeout}")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _begin(connection):
        # IMMEDIATE: the migration holds the write lock from its first statement on.
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def check_foreign_keys(ctx, step, heads, run_args):
    """Refuse to commit a migration that leaves a row referring to a row that is not there (SQLite,
    whose migrations run with foreign keys off)."""
    broken = ctx.connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise RuntimeError(f"migration {step.up_revision_id} would leave rows that refer to nothing: {broken[:5]}")


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
