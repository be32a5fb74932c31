/* The rules of Scorekeeper's games in the browser: a deal checked as it is entered, the scores
   and standings of deals kept on the phone, who deals next. Every number and rule comes from the
   data the engine renders for a match (Game.browser_rules, carried as the offline plan's `rules`):
   nothing here knows a game's name or a score of its own, it only follows that data, dispatching
   on its `kind` (the shape of the deal form). Each kind is a game folder's (its static/rules.js,
   served with the others' after this file), added with `Rules.register`. A test plays these
   functions and the engine on the same matches and asks them to agree.
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

  const wholeNumber = (text) => (/^-?\d{1,9}$/.test(String(text ?? "").trim()) ? parseInt(text, 10) : null);

  /* Each kind of deal form's rules, by kind: `check(rules, deal, names, number, withTricks)`, `score`,
     `apply(rules, standing, deal)`, `formDeal(rules, value, options)` and, where its form names a
     problem's field its own way, `formField(field, deal)`. */
  const KINDS = {};
  const kindOf = (rules) => KINDS[rules.kind];

  return {
    kinds: KINDS,
    /* What a game folder's rules build on. */
    kit: { isInt, sum, intList, owns, seatOf, nameOf, problem, checkDealer, wholeNumber },

    /* Add a kind of deal form's rules (a game folder's static/rules.js). */
    register: (kind, rules) => { KINDS[kind] = rules; },

    /* The deal a form's fields describe, shaped as a match document holds it and read as the server
       reads the same fields (each game's form.py); `value(name)` gives a field. */
    formDeal: (rules, value, options = {}) => kindOf(rules).formDeal(rules, value, options),

    /* The engine's field of a problem, as the deal form names it: its kind's own naming, else the
       field itself, or bids.2 as bids-2. */
    formField(rules, field, deal) {
      const own = kindOf(rules).formField ? kindOf(rules).formField(field, deal) : null;
      if (own !== null) return own;
      const [head, index] = field.split(".");
      return index === undefined ? head : `${head}-${index}`;
    },

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
