"""The derived figures: each player's results, ratings, summaries and pair records, kept in tables
beside the facts (the deals) and rebuilt from them on demand.

The write side:
- `rows`: one match's rows and the ratings, computed in Python from its facts and result;
- `aggregate`: a player's summary and every pair's record, aggregated in SQL from the results;
- `increments`: one match's change added to its players' summaries, pair records and ratings, when
  that is exact (the common case: a match starts, is abandoned, or ends as its players' latest);
- `locks`: the account's lock, which every change of a match's facts takes first, and the reads
  made under it (a match's deals; the owner's match to change, with its deals' facts);
- `upkeep`: storing all of them, inside the transaction of the service that changed the facts
  (only the services call it);
- `statements`: the statements `upkeep` stores a deal added and rewrites a match's results with.

The read side:
- `reads`: what the statistics pages and the player page show (never imports `upkeep`).
"""
