/* Pocha's deals in the browser: the `bids` kind of deal form, added to the rules every game shares
   (static/rules.js). Every number and rule comes from the data the engine renders for a match (the
   game's `browser_details`); the parity test plays these functions and the engine on the same matches.
   No DOM: functions of (rules, deal). */
"use strict";

(() => {
  const { isInt, sum, intList, owns, seatOf, nameOf, problem, checkDealer, wholeNumber } = Rules.kit;

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

  /* The deal the form's fields describe, shaped as a match document holds it and read as the server
     reads the same fields (form.py); `value(name)` gives a field, `cards` is the schedule's. */
  bids.formDeal = (rules, value, { cards = null, withTricks = true } = {}) => {
    const whole = (name) => wholeNumber(value(name));
    const seats = rules.next_dealer.map((_, seat) => seat);
    const trump = value("trump");
    const deal = { dealer: whole("dealer"), cards, trump: !trump || trump === "none" ? null : trump,
                   bids: seats.map((seat) => whole(`bids-${seat}`)) };
    if (withTricks) deal.tricks = seats.map((seat) => whole(`tricks-${seat}`));
    return deal;
  };

  Rules.register("bids", bids);
})();
