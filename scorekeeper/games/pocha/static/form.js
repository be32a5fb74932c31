/* Pocha's deal form (its bids, then its tricks) as it is filled in: the `bids` kind of deal form, added
   to the page's deal forms (static/app.js's `DEAL_FORMS`, whose helpers it uses). It checks the deal
   with the game's rules (its static/rules.js) and shows each problem at its field, in the page's words. */
"use strict";

(() => {
  function checkBids(form, rules) {
    const rows = $(".seat-rows", form);
    const names = JSON.parse(form.dataset.names || "[]");
    const cards = Number(rows.dataset.cards);
    const step = form.dataset.step;
    const value = fieldOf(form);
    const seats = rules.next_dealer.map((_, seat) => seat);
    if (step !== "tricks") {
      const dealer = number(value("dealer") ?? "");
      const forbidden = Rules.kinds.bids.forbidden(rules, cards, dealer, seats.map((seat) => number(value(`bids-${seat}`) ?? "")));
      $$(`input[name^="bids-"]`, form).forEach((input) => {
        /* Not disabled: a tap on it must still reach the page, to say why it cannot be chosen. */
        const banned = input.name === `bids-${dealer}` && Number(input.value) === forbidden;
        if (banned && input.checked) input.checked = false;
        input.setAttribute("aria-disabled", String(banned));
        input.closest("label").classList.toggle("forbidden", banned);
      });
    }
    if (step !== "bids") {
      const filled = form.dataset.filledSeat === undefined ? null : Number(form.dataset.filledSeat);
      const tricks = seats.map((seat) => (seat === filled ? null : number(picked(form, `tricks-${seat}`) ?? "")));
      const open = seats.filter((seat) => tricks[seat] === null);
      if (open.length === 1) {  /* the last player's tricks are what is left */
        const left = cards - tricks.reduce((total, t) => total + (t || 0), 0);
        $$(`input[name="tricks-${open[0]}"]`, form).forEach((input) => { input.checked = Number(input.value) === left; });
        if (left >= 0 && left <= cards) form.dataset.filledSeat = String(open[0]);
      }
    }
    const withTricks = step !== "bids";
    const deal = Rules.formDeal(rules, value, { cards, withTricks });
    return formProblems(rules, Rules.check(rules, deal, { names, number: Number(form.elements.number.value), withTricks }), deal);
  }

  function explainForbiddenBids(form) {
    /* A tap on the dealer's forbidden bid says why it cannot be chosen, at the dealer's row. */
    const names = JSON.parse(form.dataset.names || "[]");
    form.addEventListener("click", (event) => {
      const label = event.target.closest("label.choice.forbidden");
      if (!label) return;
      event.preventDefault();  /* the radio stays as it was */
      const input = $("input", label);
      const seat = Number(input.name.replace("bids-", ""));
      const box = $(`[data-errors-for="${input.name}"]`, form);
      const cards = Number($(".seat-rows", form).dataset.cards);
      if (!box) return;
      box.replaceChildren(Object.assign(document.createElement("p"), {
        className: "error", textContent: say("bid_hook", { name: names[seat], bid: input.value, cards }, cards) }));
      /* The dealer's row is the last one: its sentence would open under the Save bar (the box's
         scroll margin keeps it clear of the bar). */
      box.scrollIntoView({ block: "nearest" });
    });
  }

  DEAL_FORMS.bids = {
    check: checkBids,
    setup: explainForbiddenBids,
    changed(form, event) {
      if (event.target.name === `tricks-${form.dataset.filledSeat}`) delete form.dataset.filledSeat;  /* tapped by hand */
      return "";
    },
  };
})();
