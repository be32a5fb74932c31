/* Tute's deals (Tute for two, for three, in pairs) in the browser: the `card_points` kind of deal form, added to the rules every game shares
   (static/rules.js). Every number and rule comes from the data the engine renders for a match (the
   game's `browser_details`); the parity test plays these functions and the engine on the same matches.
   No DOM: functions of (rules, deal). */
"use strict";

(() => {
  const { isInt, sum, intList, owns, seatOf, nameOf, problem, checkDealer, wholeNumber } = Rules.kit;

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

  /* The deal the form's fields describe, shaped as a match document holds it and read as the server
     reads the same fields (form.py); `value(name)` gives a field. */
  cardPoints.formDeal = (rules, value) => {
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
  };

  /* The engine's field of a problem, as this form names it: points.1 is points1, a cante is the row of
     its suit, a tute its seat's choice (null: as every form names it). */
  cardPoints.formField = (field, deal) => {
    const [head, index, rest] = field.split(".");
    if (head === "cantes" && index !== undefined) return `cante_${(deal.cantes[Number(index)] || {}).suit}`;
    if (head === "tute") return rest === undefined && index === "kind" ? "tute_kind" : "tute_seat";
    return head === "points" && index !== undefined ? `points${index}` : null;
  };

  Rules.register("card_points", cardPoints);
})();
