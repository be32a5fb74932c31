/* The subastado's deal form as it is filled in: the `auction` kind of deal form, added to the page's
   deal forms (static/app.js's `DEAL_FORMS`, whose helpers it uses). It checks the deal with the game's
   rules (its static/rules.js) and shows each problem at its field, in the page's words. */
"use strict";

(() => {
  function checkAuction(form, rules) {
    /* Tute subastado: the contract's part hides when everyone passed or a tute ends the match; the
       cantes say their value under the trump; the declarer's total says whether the bid is made. */
    const errors = [];
    ["bid", "points"].forEach((name) => {
      const typed = (form.elements[name].value || "").trim();
      if (typed !== "" && number(typed) === null) {
        errors.push({ field: name, message: name === "points" ? say("points_impossible", { points: typed })
          : say("auction_bid_range", { bid: typed, low: rules.min_bid, high: rules.max_bid }) });
      }
    });
    const deal = Rules.formDeal(rules, fieldOf(form));
    const contract = deal.passed === undefined && deal.tute === undefined;
    $(".contract", form).hidden = !contract;
    $$(".cantes label[data-suit]", form).forEach((label) => {
      const suit = label.dataset.suit;
      const trump = deal.trump || rules.suits.find((other) => other !== suit);  /* before a trump is chosen: as any other suit */
      $("small", label).textContent = String(rules.cantes[suit][trump]);
    });
    const problems = Rules.check(rules, deal, { names: JSON.parse(form.dataset.names || "[]") });
    const state = $("#contract-state", form);
    const scored = contract && ["declarer", "bid", "trump", "points"].every((field) => !problems.some((p) => p.field === field));
    if (scored) {
      const { total, made } = Rules.kinds.auction.contract(rules, deal);
      state.textContent = fillIn(made ? state.dataset.made : state.dataset.failed, { total, bid: deal.bid });
    } else {
      const bid = problems.some((p) => p.field === "bid") ? null : deal.bid;
      state.textContent = contract && bid !== null ? fillIn(state.dataset.needs, { bid }) : "";
    }
    errors.push(...formProblems(rules, problems, deal));
    return errors;
  }

  DEAL_FORMS.auction = { check: checkAuction, setup: setupCardCounter };
})();
