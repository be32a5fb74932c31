/* Lowball's deal form as it is filled in: the engine checks each deal when it is sent. */
"use strict";

(() => {
  DEAL_FORMS.lowball = {
    check: (form, rules) => formProblems(rules, Rules.check(rules, Rules.formDeal(rules, fieldOf(form))), {}),
    setup: () => {},
  };
})();
