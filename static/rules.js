/* The rules of Scorekeeper's games in the browser: a deal checked as it is entered, the scores
   and standings of deals kept on the phone, who deals next. Every number and rule comes from the
   data the engine renders for a match (Game.browser_rules, carried as the offline plan's `rules`):
   nothing here knows a game's name or a score of its own, it only follows that data, dispatching
   on its `kind` (the shape of the deal form). A test plays these functions and the engine on the
   same matches and asks them to agree.
   No DOM: functions of (rules, deal), the deal shaped as a match document holds it (docs/api.md). */
"use strict";

const Rules = (() => {
  const isInt = (value) => Number.isInteger(value);
  const sum = (values) => values.reduce((total, value) => total + value, 0);
  const intList = (value, length) => (Array.isArray(value) && value.length === length && value.every(isInt) ? value : null);
  const owns = (table, key) => typeof key === "string" && Object.prototype.hasOwnProperty.call(table, key);
  const seatOf = (rules, value) => isInt(value) && value >= 0 && value < rules.seats;
  const nameOf = (names, seat) => (names && names[seat] !== undefined ? names[seat] : String(seat + 1));
  /* One problem as the engine reports it (its code and field) with its sentence's id and values;
     `count` picks the sentence's plural form, `missing` marks a value not given yet. */
  const problem = (code, field, message, params = {}, { count = null, missing = false } = {}) =>
    ({ code, field, message, params, count, missing });

  function checkDealer(rules, deal, found) {
    if (!isInt(deal.dealer)) found.push(problem("malformed", "dealer", "dealer_not_seat", {}, { missing: true }));
    else if (!seatOf(rules, deal.dealer)) found.push(problem("dealer_invalid", "dealer", "dealer_out_of_range", { players: rules.seats }));
    return seatOf(rules, deal.dealer) ? deal.dealer : null;
  }

  /* ------------------------------------------------------------ card points: Tute */

  const cardPoints = {
    possible: (rules, points) => isInt(points) && points >= 0 && points <= rules.deck_points && !rules.impossible_points.includes(points),

    /* The other side's card points when one side's are typed, in a deal played out. */
    otherSide: (rules, points) => rules.deck_points - points,

    check(rules, deal, names) {
      const found = [];
      checkDealer(rules, deal, found);
      if (!rules.suits.includes(deal.trump)) found.push(problem("trump_invalid", "trump", "trump_missing", {}, { missing: true }));
      const raw = deal.tute ?? null;
      const tute = raw === null ? null : cardPoints.declaration(rules, raw, found);
      const declared = raw !== null && rules.tute_allowed;
      cardPoints.checkPoints(rules, deal.points ?? null, declared, raw && owns(rules.held_by_tute, raw.kind) ? raw.kind : null, found);
      const last = deal.last_trick ?? null;
      if (declared) {
        if (last !== null) found.push(problem("last_trick_invalid", "last_trick", "last_trick_after_tute"));
      } else if (last === null) {
        found.push(problem("last_trick_invalid", "last_trick", "last_trick_missing", {}, { missing: true }));
      } else if (!isInt(last)) {
        found.push(rules.sides.length === 2 ? problem("malformed", "last_trick", "last_trick_not_side")
          : problem("malformed", "last_trick", "last_trick_not_seat", { most: rules.sides.length - 1 }));
      } else if (last < 0 || last >= rules.sides.length) {
        found.push(problem("last_trick_invalid", "last_trick", "last_trick_out_of_range"));
      }
      cardPoints.checkCantes(rules, deal.cantes ?? [], tute, names, found);
      return found;
    },

    declaration(rules, raw, found) {
      const start = found.length;
      if (!isInt(raw.seat)) found.push(problem("malformed", "tute.seat", "tute_seat_missing", {}, { missing: true }));
      else if (!seatOf(rules, raw.seat)) found.push(problem("seat_invalid", "tute.seat", "seat_missing", { seat: raw.seat + 1 }));
      if (!owns(rules.held_by_tute, raw.kind)) found.push(problem("malformed", "tute.kind", "tute_kind", {}, { missing: true }));
      if (!rules.tute_allowed) found.push(problem("tute_disabled", "tute", "tute_off"));
      return found.length === start ? raw : null;
    },

    checkPoints(rules, value, declared, kind, found) {
      if (value === null && declared) return;  /* after a tute the points are optional */
      const pair = intList(value, rules.sides.length);
      if (pair === null) {
        const count = rules.sides.length;
        found.push(count === 2 ? problem("malformed", "points", "points_not_pair", {}, { missing: true })
          : problem("malformed", "points", "points_not_list", { count }, { missing: true }));
        return;
      }
      const impossible = pair.filter((points) => !cardPoints.possible(rules, points));
      pair.forEach((points, side) => {
        if (!cardPoints.possible(rules, points)) found.push(problem("points_impossible", `points.${side}`, "points_impossible", { points }, { count: points }));
      });
      if (impossible.length) return;
      const total = sum(pair);
      if (!declared) {
        if (total !== rules.deck_points) found.push(problem("points_total", "points", "points_total", { total }));
        return;
      }
      /* the declarer still holds the four of the tute's kind: their points were never captured
         (of a kind not named right, refused on its own, the bound is unknown) */
      if (kind === null) return;
      const most = rules.deck_points - rules.held_by_tute[kind];
      if (total > most) found.push(problem("points_total", "points", "points_total_tute", { kind, most, total }));
    },

    checkCantes(rules, cantes, tute, names, found) {
      if (!Array.isArray(cantes)) {
        found.push(problem("malformed", "cantes", "cantes_not_list"));
        return;
      }
      const sung = [];
      cantes.forEach((item, index) => {
        const where = `cantes.${index}`;
        if (item === null || typeof item !== "object" || Array.isArray(item)) {
          found.push(problem("malformed", where, "cante_not_object"));
          return;
        }
        const { seat, suit } = item;
        if (!isInt(seat)) found.push(problem("malformed", `${where}.seat`, "cante_seat_missing"));
        else if (!seatOf(rules, seat)) found.push(problem("seat_invalid", `${where}.seat`, "seat_missing", { seat: seat + 1 }));
        else if (tute !== null && seat !== tute.seat) {
          found.push(problem("seat_invalid", `${where}.seat`, "cante_after_tute",
            { singer: nameOf(names, seat), holder: nameOf(names, tute.seat), kind: tute.kind }));
        }
        if (!rules.suits.includes(suit)) found.push(problem("malformed", `${where}.suit`, "cante_suit"));
        else if (sung.includes(suit)) found.push(problem("cante_suit_twice", `${where}.suit`, "cante_suit_twice", { suit }));
        if (seatOf(rules, seat) && rules.suits.includes(suit)) sung.push(suit);
      });
    },

    /* A checked deal's score per side, the side that won it and the juegos it earns (per side). */
    score(rules, deal) {
      const sideOf = (seat) => rules.sides.findIndex((side) => side.includes(seat));
      const scores = deal.points ? deal.points.slice() : rules.sides.map(() => 0);
      const last = deal.last_trick ?? null;
      if (last !== null) scores[last] += rules.last_trick_bonus;
      (deal.cantes || []).forEach((cante) => { scores[sideOf(cante.seat)] += rules.cantes[cante.suit][deal.trump]; });
      /* On a tie, the tied side that took the last trick; else the tied side that plays first after the dealer. */
      const best = Math.max(...scores);
      const tied = scores.map((_, side) => side).filter((side) => scores[side] === best);
      let winner;
      if (deal.tute) winner = sideOf(deal.tute.seat);
      else if (tied.length === 1) winner = tied[0];
      else if (tied.includes(last)) winner = last;
      else winner = sideOf(rules.play_order[deal.dealer].find((seat) => tied.includes(sideOf(seat))));
      const table = rules.juegos;
      let earned = null;
      if (table) earned = deal.tute ? table.tute : scores[winner] >= table.over_from ? table.over : table.under;
      return { scores, winner, juegos: earned === null ? null : scores.map((_, side) => (side === winner ? earned : 0)) };
    },

    /* Of the sides `tied` at the end of a match on points, the winner of its last deal if it is one of
       them; else the first of them to play after the dealer. */
    tieWinner(rules, tied, preferred, dealer) {
      if (tied.includes(preferred)) return preferred;
      const sideOf = (seat) => rules.sides.findIndex((side) => side.includes(seat));
      return sideOf(rules.play_order[dealer].find((seat) => tied.includes(sideOf(seat))));
    },

    /* Add a checked deal to the standing; say whether the match is over after it, and who won it. */
    apply(rules, standing, deal) {
      const result = cardPoints.score(rules, deal);
      result.scores.forEach((score, side) => { standing.totals[side] += score; });
      if (deal.tute && rules.tute_ends_match) return { result, finished: true, winners: [result.winner] };
      if (standing.juegos && result.juegos) {
        result.juegos.forEach((count, side) => { standing.juegos[side] += count; });
        const won = standing.juegos[result.winner] >= rules.target;
        return { result, finished: won, winners: won ? [result.winner] : [] };
      }
      const best = Math.max(...standing.totals);
      if (best < rules.target) return { result, finished: false, winners: [] };
      const leaders = standing.totals.map((_, side) => side).filter((side) => standing.totals[side] === best);
      const leader = leaders.length === 1 ? leaders[0] : cardPoints.tieWinner(rules, leaders, result.winner, deal.dealer);
      return { result, finished: true, winners: [leader] };
    },
  };

  /* ------------------------------------------------------------ bids: Pocha */

  const bids = {
    /* The bid the dealer may not make, given everyone else's; null when there is none (yet). */
    forbidden(rules, cards, dealer, bidList) {
      if (!rules.hook || !isInt(cards)) return null;
      const others = bidList.filter((_, seat) => seat !== dealer);
      if (!others.every(isInt)) return null;
      const missing = cards - sum(others);
      return missing >= 0 && missing <= cards ? missing : null;
    },

    check(rules, deal, names, number, withTricks = true) {
      const found = [];
      const dealer = checkDealer(rules, deal, found);
      const cards = bids.checkCards(rules, deal.cards, number, found);
      const trump = deal.trump ?? null;
      if (trump !== null && !rules.suits.includes(trump)) found.push(problem("trump_invalid", "trump", "pocha_trump"));
      const bidList = bids.counts(rules, "bids", deal.bids, cards, names, found);
      if (bidList !== null && cards !== null && dealer !== null && rules.hook && sum(bidList) === cards) {
        found.push(problem("bid_hook", `bids.${dealer}`, "bid_hook", { name: nameOf(names, dealer), bid: bidList[dealer], cards }, { count: cards }));
      }
      const tricks = withTricks ? bids.counts(rules, "tricks", deal.tricks, cards, names, found) : null;
      if (tricks !== null && cards !== null && sum(tricks) !== cards) {
        found.push(problem("tricks_total", "tricks", "tricks_total", { cards, total: sum(tricks) }, { count: cards }));
      }
      return found;
    },

    checkCards(rules, cards, number, found) {
      if (!isInt(cards)) {
        found.push(problem("malformed", "cards", "cards_missing"));
        return null;
      }
      if (cards < 1 || cards > rules.most_cards) {
        found.push(problem("cards_range", "cards", "cards_range", { players: rules.seats, most: rules.most_cards, cards }));
        return null;
      }
      const scheduled = rules.schedule[number - 1];
      if (cards !== scheduled) found.push(problem("cards_schedule", "cards", "cards_schedule", { number, scheduled, cards }, { count: scheduled }));
      return cards;
    },

    counts(rules, field, value, cards, names, found) {
      const values = intList(value, rules.seats);
      const bidding = field === "bids";
      if (values === null) {
        found.push(problem("malformed", field, bidding ? "bids_not_list" : "tricks_not_list", { players: rules.seats }, { missing: true }));
        return null;
      }
      if (cards === null) return values;
      const wrong = values.map((count, seat) => [count, seat]).filter(([count]) => count < 0 || count > cards);
      wrong.forEach(([count, seat]) => {
        const params = bidding ? { name: nameOf(names, seat), bid: count, cards } : { name: nameOf(names, seat), tricks: count, cards };
        found.push(problem(bidding ? "bid_range" : "tricks_range", `${field}.${seat}`, bidding ? "bid_range" : "tricks_range", params, { count: cards }));
      });
      return wrong.length ? null : values;
    },

    score(rules, deal) {
      const factor = rules.trump_factor[deal.trump ?? "none"];
      return { scores: deal.bids.map((bid, seat) => rules.scores[bid][deal.tricks[seat]] * factor), winner: null, juegos: null };
    },

    /* Over with the schedule's last deal: every player with the best total wins. */
    apply(rules, standing, deal) {
      const result = bids.score(rules, deal);
      result.scores.forEach((score, side) => { standing.totals[side] += score; });
      const finished = standing.dealt + 1 >= rules.schedule.length;
      const best = Math.max(...standing.totals);
      return { result, finished, winners: finished ? standing.totals.map((_, seat) => seat).filter((seat) => standing.totals[seat] === best) : [] };
    },
  };

  /* ------------------------------------------------------------ the auction: Tute subastado */

  const CONTRACT_FIELDS = ["declarer", "bid", "trump", "points", "last_trick", "cantes"];

  const auction = {
    check(rules, deal, names) {
      const found = [];
      checkDealer(rules, deal, found);
      const given = (field) => (deal[field] ?? null) !== null;
      const passed = deal.passed ?? false;
      if (typeof passed !== "boolean") {
        found.push(problem("malformed", "passed", "passed_not_bool"));
      } else if (passed) {
        [...CONTRACT_FIELDS, "tute"].forEach((field) => {
          if (given(field)) found.push(problem("declarer_invalid", field, "passed_with_contract"));
        });
      } else if (given("tute")) {
        const raw = deal.tute;
        if (typeof raw !== "object" || Array.isArray(raw) || Object.keys(raw).some((key) => key !== "seat" && key !== "kind")) {
          found.push(problem("malformed", "tute", "tute_not_object"));
        } else {
          cardPoints.declaration(rules, raw, found);
        }
        CONTRACT_FIELDS.forEach((field) => { if (given(field)) found.push(problem("malformed", field, "tute_deal_only")); });
      } else {
        auction.checkContract(rules, deal, names, found);
      }
      return found;
    },

    checkContract(rules, deal, names, found) {
      const declarer = deal.declarer ?? null;
      if (declarer === null) found.push(problem("declarer_invalid", "declarer", "declarer_missing", {}, { missing: true }));
      else if (!isInt(declarer)) found.push(problem("malformed", "declarer", "declarer_not_seat"));
      else if (!seatOf(rules, declarer)) found.push(problem("declarer_invalid", "declarer", "declarer_out_of_range", { players: rules.seats }));
      const bid = deal.bid ?? null;
      if (!isInt(bid)) found.push(problem("malformed", "bid", "bid_missing", {}, { missing: bid === null }));
      else if (bid < rules.min_bid || bid > rules.max_bid) found.push(problem("bid_range", "bid", "auction_bid_range", { bid, low: rules.min_bid, high: rules.max_bid }));
      else if (bid % rules.bid_step !== 0) found.push(problem("bid_step", "bid", "auction_bid_step", { bid, step: rules.bid_step }));
      if (!rules.suits.includes(deal.trump)) found.push(problem("trump_invalid", "trump", "trump_missing", {}, { missing: true }));
      const points = deal.points ?? null;
      if (!isInt(points)) found.push(problem("malformed", "points", "declarer_points_missing", {}, { missing: points === null }));
      else if (!cardPoints.possible(rules, points)) found.push(problem("points_impossible", "points", "points_impossible", { points }, { count: points }));
      const last = deal.last_trick ?? null;
      if (last === null) found.push(problem("last_trick_invalid", "last_trick", "last_trick_declarer", {}, { missing: true }));
      else if (typeof last !== "boolean") found.push(problem("malformed", "last_trick", "last_trick_declarer"));
      auction.checkCantes(rules, deal.cantes ?? [], seatOf(rules, declarer) ? declarer : null, names, found);
    },

    checkCantes(rules, cantes, declarer, names, found) {
      if (!Array.isArray(cantes)) {
        found.push(problem("malformed", "cantes", "cantes_not_list"));
        return;
      }
      const sung = [];
      cantes.forEach((item, index) => {
        const where = `cantes.${index}`;
        if (item === null || typeof item !== "object" || Array.isArray(item) || Object.keys(item).some((key) => key !== "seat" && key !== "suit")) {
          found.push(problem("malformed", where, "cante_not_object"));
          return;
        }
        const { seat, suit } = item;
        if (!isInt(seat)) found.push(problem("malformed", `${where}.seat`, "cante_seat_missing"));
        else if (!seatOf(rules, seat)) found.push(problem("seat_invalid", `${where}.seat`, "seat_missing", { seat: seat + 1 }));
        else if (declarer !== null && seat !== declarer) {
          found.push(problem("seat_invalid", `${where}.seat`, "cante_not_declarer", { singer: nameOf(names, seat), declarer: nameOf(names, declarer) }));
        }
        if (!rules.suits.includes(suit)) found.push(problem("malformed", `${where}.suit`, "cante_suit"));
        else if (sung.includes(suit)) found.push(problem("cante_suit_twice", `${where}.suit`, "cante_suit_twice", { suit }));
        if (seatOf(rules, seat) && rules.suits.includes(suit)) sung.push(suit);
      });
    },

    /* The declarer's total (card points, the last trick's bonus, cantes) and whether it makes the bid. */
    contract(rules, deal) {
      const sung = (deal.cantes || []).reduce((total, cante) => total + rules.cantes[cante.suit][deal.trump], 0);
      const total = deal.points + (deal.last_trick ? rules.last_trick_bonus : 0) + sung;
      return { total, made: total >= deal.bid };
    },

    /* A checked deal's score per player and its winner: the declarer when the contract was made. */
    score(rules, deal) {
      const scores = rules.sides.map(() => 0);
      if (deal.passed || deal.tute) return { scores, winner: null, juegos: null };
      const { total, made } = auction.contract(rules, deal);
      if (made) {
        scores[deal.declarer] = rules.made === "total" ? total : deal.bid;
        return { scores, winner: deal.declarer, juegos: null };
      }
      if (rules.failed === "lose") scores[deal.declarer] = -deal.bid;
      else scores.forEach((_, seat) => { if (seat !== deal.declarer) scores[seat] = deal.bid; });
      return { scores, winner: null, juegos: null };
    },

    /* Over once the target is reached (or the set number of deals is played), and one total is higher than every other. */
    apply(rules, standing, deal) {
      const result = auction.score(rules, deal);
      result.scores.forEach((score, side) => { standing.totals[side] += score; });
      if (deal.tute) return { result, finished: true, winners: [deal.tute.seat] };
      const best = Math.max(...standing.totals);
      const due = rules.deals !== null ? standing.dealt + 1 >= rules.deals : best >= rules.target;
      const finished = due && standing.totals.filter((total) => total === best).length === 1;
      return { result, finished, winners: finished ? [standing.totals.indexOf(best)] : [] };
    },
  };

  const wholeNumber = (text) => (/^-?\d{1,9}$/.test(String(text ?? "").trim()) ? parseInt(text, 10) : null);

  /* The deal a form's fields describe, shaped as a match document holds it and read as the server
     reads the same fields (each game's form.py), for each kind of deal form; `value(name)` gives a field. */
  const FORM_DEALS = {
    card_points(rules, value) {
      const whole = (name) => wholeNumber(value(name));
      const deal = { dealer: whole("dealer"), trump: value("trump") || null };
      const declared = Boolean(value("tute_seat"));
      const points = rules.sides.map((_, side) => whole(`points${side}`));
      const open = points.map((_, side) => side).filter((side) => points[side] === null);
      if (declared) {
        if (open.length < points.length) deal.points = points.map((p) => p ?? 0);
      } else {
        /* one side left blank: it holds the rest of the deck */
        if (open.length === 1) points[open[0]] = rules.deck_points - sum(points.filter(isInt));
        deal.points = points;
        deal.last_trick = whole("last_trick");
      }
      deal.cantes = rules.suits.filter((suit) => value(`cante_${suit}`)).map((suit) => ({ seat: Number(value(`cante_${suit}`)), suit }));
      if (declared) deal.tute = { seat: Number(value("tute_seat")), kind: value("tute_kind") || null };
      return deal;
    },
    auction(rules, value) {
      const whole = (name) => wholeNumber(value(name));
      const deal = { dealer: whole("dealer") };
      if (value("tute_seat")) {
        deal.tute = { seat: Number(value("tute_seat")), kind: value("tute_kind") || null };
        return deal;
      }
      const declarer = value("declarer");
      if (declarer === "passed") {
        deal.passed = true;
        return deal;
      }
      const seat = wholeNumber(declarer);
      Object.assign(deal, { declarer: seat, bid: whole("bid"), trump: value("trump") || null, points: whole("points"),
                            last_trick: Boolean(value("last_trick")) });
      if (seat !== null) deal.cantes = rules.suits.filter((suit) => value(`cante_${suit}`)).map((suit) => ({ seat, suit }));
      return deal;
    },
    bids(rules, value, { cards = null, withTricks = true } = {}) {
      const whole = (name) => wholeNumber(value(name));
      const seats = rules.next_dealer.map((_, seat) => seat);
      const trump = value("trump");
      const deal = { dealer: whole("dealer"), cards, trump: !trump || trump === "none" ? null : trump,
                     bids: seats.map((seat) => whole(`bids-${seat}`)) };
      if (withTricks) deal.tricks = seats.map((seat) => whole(`tricks-${seat}`));
      return deal;
    },
  };

  /* The engine's field of a problem, as this form names it: points.1 is points1, bids.2 is bids-2,
     a cante is the row of its suit, a tute its seat's choice. */
  function formField(field, deal) {
    const [head, index, rest] = field.split(".");
    if (head === "cantes" && index !== undefined) return `cante_${(deal.cantes[Number(index)] || {}).suit}`;
    if (head === "tute") return rest === undefined && index === "kind" ? "tute_kind" : "tute_seat";
    if (index === undefined) return head;
    return head === "points" ? `points${index}` : `${head}-${index}`;
  }

  const KINDS = { card_points: cardPoints, bids, auction };
  const kindOf = (rules) => KINDS[rules.kind];

  return {
    kinds: KINDS,
    formDeals: FORM_DEALS,
    formField,

    /* The problems of one deal (deal `number` of its match), as the engine finds them; `withTricks`
       false checks the bids of a deal before play. `names` only fill the sentences. */
    check: (rules, deal, { names = null, number = 1, withTricks = true } = {}) => kindOf(rules).check(rules, deal, names, number, withTricks),

    /* The score per side of a checked deal, its winner and the juegos it earns (null where none are kept). */
    score: (rules, deal) => kindOf(rules).score(rules, deal),

    /* Who deals after `dealer`. */
    nextDealer: (rules, dealer) => rules.next_dealer[dealer],

    /* The cards in hand of deal `number`, where a schedule says them; null past its end or without one. */
    cardsFor: (rules, number) => (rules.schedule && number >= 1 && number <= rules.schedule.length ? rules.schedule[number - 1] : null),

    /* The standing after checked `deals` are added to `start` ({totals, juegos, dealt, finished,
       winners, next_dealer}): totals, juegos, each deal's scores, whether the match is over and who
       won it, and who deals next with how many cards. A deal after the end is not counted: the server
       refuses it. */
    follow(rules, start, deals) {
      const standing = { totals: start.totals.slice(), juegos: start.juegos ? start.juegos.slice() : null, dealt: start.dealt };
      let finished = Boolean(start.finished);
      let winners = start.winners || [];
      let nextDealer = start.next_dealer ?? null;
      const scores = [];
      deals.forEach((deal) => {
        if (finished) return;
        const step = kindOf(rules).apply(rules, standing, deal);
        standing.dealt += 1;
        scores.push(step.result.scores);
        finished = step.finished;
        winners = step.winners;
        nextDealer = rules.next_dealer[deal.dealer];
      });
      return {
        totals: standing.totals, juegos: standing.juegos, scores, finished, winners, dealt: standing.dealt,
        next_dealer: finished ? null : nextDealer,
        next_cards: finished || !rules.schedule ? null : rules.schedule[standing.dealt] ?? null,
      };
    },
  };
})();
