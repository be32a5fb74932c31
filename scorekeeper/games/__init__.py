"""The games, a folder each (a family such as Tute's may share one), and their web side's registry.

A folder holds the game's engine in `rules` (pure: an import contract keeps Flask and SQLAlchemy
out), its web side in `web` (`WEB_GAMES`), its deal form in `form`, and its templates; `kit` is
what web sides build on, and `web` reads each registered folder's web side. The folders are
registered in `scorekeeper.registry`, one line each (docs/adding-a-game.md).
"""
