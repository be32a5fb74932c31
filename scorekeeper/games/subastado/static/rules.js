/* The subastado's deals in the browser: the `auction` kind of deal form, added to the rules every game shares
   (static/rules.js). Every number and rule comes from the data the engine renders for a match (the
   game's `browser_details`); the parity test plays these functions and the engine on the same matches.
   No DOM: functions of (rules, deal). Its tute and card points are Tute's (Rules.kinds.card_points). */
"use strict";

(() => {
  const { isInt, sum, intList, owns, seatOf, nameOf, problem, checkDealer, wholeNumber } = Rules.kit;

  const cardPoints = Rules.kinds.card_points;

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

  /* The deal the form's fields describe, shaped as a match document holds it and read as the server
     reads the same fields (form.py); `value(name)` gives a field. */
  auction.formDeal = (rules, value) => {
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
  };

  /* A cante is the box of its suit, a tute its seat's choice (null: as every form names it). */
  auction.formField = (field, deal) => cardPoints.formField(field, deal);

  Rules.register("auction", auction);
})();
