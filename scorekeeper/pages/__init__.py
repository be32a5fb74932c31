"""The pages' view models: what a page shows, laid out from what the reads return.

- `boards`: a match scored and laid out for the scoreboard, the deal forms, the live view and its detail;
- `lists`: the home page's cards, the history's and head to head's cards, the leaderboard's rows, the pager;
- `deal_table`: the lines of the deal-by-deal table;
- `nights`: what the nights' pages show of each night;
- `offline`: what a deal form carries to go on entering deals without a connection;
- `charts`: the charts' coordinates (a match's running totals, a player's bids and ratings);
- `rivals`: a player's rivals and partners, as their page lists them;
- `cards`: what a match's or a night's result card says; `card_layout` (with `card_standings` and
  `card_fit`) where each of its words goes, measured; and `card_image`, which draws it as a PNG;
- `qr`: the QR codes of the links another phone opens;
- `addresses`: the addresses handed to other phones (entry and share links), and the router asked once per list.

No SQL here: the reads are in `reads`, `figures.reads` and `figures.pairs`. No markup either (but the QR codes,
which segno draws, and the result cards' images): the templates lay these out.
"""
