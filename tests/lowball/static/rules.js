/* Lowball's deals in the browser: the `lowball` kind of deal form, on the rules every game shares. */
"use strict";

(() => {
  const { isInt, problem, checkDealer, wholeNumber } = Rules.kit;

  const lowball = {
    check(rules, deal, names) {
      const found = [];
      checkDealer(rules, deal, found);
      if (!Array.isArray(deal.points) || deal.points.length !== rules.seats) {
        found.push(problem("malformed", "points", "lowball_points_list", { count: rules.seats }, { missing: true }));
      }
      return found;
    },
    score(rules, deal) {
      return { scores: deal.points.map((points) => points ?? 0), winner: null, juegos: null };
    },
    apply(rules, standing, deal) {
      const result = lowball.score(rules, deal);
      result.scores.forEach((score, side) => { standing.totals[side] += score; });
      return { result, finished: false, winners: [] };
    },
    formDeal(rules, value) {
      const seats = rules.sides.map((_, seat) => seat);
      return { dealer: wholeNumber(value("dealer")), points: seats.map((seat) => wholeNumber(value(`points-${seat}`))) };
    },
  };

  Rules.register("lowball", lowball);
})();
