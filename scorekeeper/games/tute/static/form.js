/* Tute's deal form as it is filled in: the `card_points` kind of deal form, added to the page's deal
   forms (static/app.js's `DEAL_FORMS`, whose helpers it uses). It checks the deal with the game's rules
   (its static/rules.js) and shows each problem at its field, in the page's words. */
"use strict";

(() => {
  /* The card points inputs, one per side of the table. */
  const pointsInputs = (form, rules) => rules.sides.map((_, side) => form.elements[`points${side}`]);

  function checkCardPoints(form, rules) {
    const errors = [];
    const inputs = pointsInputs(form, rules);
    /* Text that is no whole number is said at its own field; the deal reads it as not typed. */
    inputs.forEach((input, side) => {
      const typed = input.value.trim();
      if (typed !== "" && number(typed) === null) errors.push({ field: `points${side}`, message: say("points_impossible", { points: typed }) });
    });
    const deal = Rules.formDeal(rules, fieldOf(form));
    /* As on the server: the side filled in from the others is wrong only because a typed one is. */
    const blank = inputs.map((_, side) => side).filter((side) => number(inputs[side].value) === null);
    const filled = deal.tute || blank.length !== 1 ? null : blank[0];
    const problems = Rules.check(rules, deal, { names: JSON.parse(form.dataset.names || "[]") })
      .filter((p) => p.field !== `points.${filled}`);
    errors.push(...formProblems(rules, problems, deal));
    $$(".cante-row", form).forEach((row) => {
      const suit = row.dataset.suit;
      const trump = deal.trump || rules.suits.find((other) => other !== suit);  /* before a trump is chosen: as any other suit */
      $("[id$='-label']", row).textContent = suit === deal.trump ? row.dataset.labelTrump : row.dataset.labelOther;
      $(".suit-name small", row).textContent = String(rules.cantes[suit][trump]);
    });
    return errors;
  }

  function followPoints(form, typed, rules) {
    /* The last side's card points follow the others' (the rest of the deck's), on a new deal and on a
       correction alike: with two sides, the other one's as one is typed; with three, the one not
       typed by hand once the other two are. After a tute the points are the declarer's own count,
       so nothing follows. */
    const inputs = pointsInputs(form, rules);
    const side = inputs.indexOf(typed);
    if (side < 0 || picked(form, "tute_seat")) return;
    if (form.dataset.followingSide === String(side)) delete form.dataset.followingSide;  /* typed by hand */
    const others = inputs.map((_, other) => other).filter((other) => other !== side);
    const open = others.filter((other) => inputs[other].value.trim() === "" || form.dataset.followingSide === String(other));
    const follower = others.length === 1 ? others[0] : open.length === 1 ? open[0] : null;
    if (follower === null) return;
    const given = inputs.filter((_, other) => other !== follower).map((input) => number(input.value));
    const card = Rules.kinds.card_points;
    /* Points no side can capture leave the following side empty: its own impossible number would
       only be a second complaint about the same typing. */
    if (given.some((points) => points === null)) return;
    if (given.every((points) => points >= 0 && points <= rules.deck_points)) {
      const rest = rules.deck_points - given.reduce((total, points) => total + points, 0);
      const shown = given.every((points) => card.possible(rules, points)) && card.possible(rules, rest);
      inputs[follower].value = shown ? String(rest) : "";
      form.dataset.followingSide = String(follower);
    }
  }

  function setupCanteGrid(form) {
    /* Tap who sang; tap the same seat again to clear the suit (its "nobody" choice). */
    $$(".cante-row .cell input", form).forEach((input) => {
      const label = input.closest("label");
      label.addEventListener("pointerdown", () => { input.dataset.wasChecked = String(input.checked); });
      input.addEventListener("click", () => {
        if (input.dataset.wasChecked !== "true") return;
        input.dataset.wasChecked = "false";
        const nobody = $(".nobody input", input.closest(".cante-row"));
        nobody.checked = true;
        nobody.dispatchEvent(new Event("change", { bubbles: true }));
      });
    });
  }

  DEAL_FORMS.card_points = {
    check: checkCardPoints,
    setup: (form, rules) => {
      setupCanteGrid(form);
      setupCardCounter(form);
      /* A stored deal shown for correction: its last side's points follow the others' changes. */
      const inputs = pointsInputs(form, rules);
      if (inputs.every((input) => input && input.value.trim() !== "")) form.dataset.followingSide = String(inputs.length - 1);
    },
    changed(form, event, rules, group) {
      if (event.type === "input" && group === "points") followPoints(form, event.target, rules);
      /* a tute, or points typed, changes what the last trick and every side's points must be */
      return group === "tute_seat" || group === "points" ? `last_trick|points|${rules.sides.map((_, side) => `points${side}|`).join("")}` : "";
    },
  };
})();
