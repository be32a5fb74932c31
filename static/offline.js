/* Scorekeeper without a connection, for a whole evening: deals saved while the connection is
   down are kept on this phone, in order, and sent when it returns.

   A deal form is sent with fetch and an idempotency key. Without an answer (no connection,
   or a server that cannot be reached) the deal is kept and the form is made ready for the
   next deal from the plan the page carries (the dealer rotation and, for Pocha, the cards
   of every deal); the deals kept so far and the totals they give are shown as provisional.
   Sending stops at a deal the server refuses (409, 422): it and every deal after it stay on
   the phone, and the deal form offers to correct it, or to drop it; when the match ended
   meanwhile on another phone (the answer's X-Match-Over header), its kept deals can no longer
   be entered, and are dropped with one confirmation. Anything else is tried again later.
   A deal form opened again (or reloaded from the copy the service worker kept, without a
   connection) is made ready for the deal after those kept on the phone.
   Every rule it follows (scores, juegos, the next dealer, the cards of each deal) is the engine's,
   in the plan's `rules`, through rules.js.
   Loaded by app.js where it is needed, and uses its helpers ($, $$, say, fillIn, number). */
"use strict";

const QUEUE = "scorekeeper-queue";
const REFUSAL = "scorekeeper-refusal";
const load = (name, empty = []) => { try { return JSON.parse(localStorage.getItem(name)) || empty; } catch (e) { return empty; } };
const store = (name, value) => { try { localStorage.setItem(name, JSON.stringify(value)); } catch (e) { /* full */ } };
const newKey = () => (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`);
const matchPath = (action) => (new URL(action, location.href).pathname.match(/^\/matches\/\d+\//) || [""])[0];
/* A deal is stored when the answer is one of its match's pages; a sign-in page (a session that
   ended) is not an answer, and the deal stays on the phone. */
const stored = (response, action) => response.ok && `${new URL(response.url).pathname}/`.startsWith(matchPath(action));

function banner(kind, extra = "") {
  const node = $("#offline-banner");
  if (!node) return;
  node.textContent = `${node.dataset[kind]}${extra}`;
  node.hidden = false;
}

const keptPage = () => document.body.hasAttribute("data-kept-page");
const scoreboardOf = (path) => path.replace(/\/$/, "");
const pluralOf = (count) => new Intl.PluralRules(document.documentElement.lang || undefined).select(count);
const saying = (node, name, count) => node.dataset[`${name}${pluralOf(count) === "one" ? "One" : "Other"}`];

function tablePlan(form) {
  /* What a kept deal needs to be read back anywhere (the banner lists it on every page): the
     table and the house rules, not the standings. */
  const plan = JSON.parse(form.dataset.plan || "null");
  return plan && { bids_first: plan.bids_first, names: plan.names, sides: plan.sides, side_names: plan.side_names, options: plan.options, rules: plan.rules };
}

function keep(form) {
  const body = new URLSearchParams(new FormData(form)).toString();
  store(QUEUE, load(QUEUE).concat([{ action: form.action, body, key: form.elements.idempotency_key.value, plan: tablePlan(form) }]));
  banner("queued");
  showKept();
}

/* ---------------------------------------------------------------- the next deal, prepared on the phone */

function readyForNext(form) {
  /* A deal entered in one go (Tute): the next deal's number, the next dealer, and empty choices. */
  const next = Number(form.elements.number.value) + 1;
  renumber(form, next);
  form.elements.number.value = String(next);
  const button = $("button[type=submit]", form);
  button.textContent = button.textContent.replace(/\d+/, String(next));
  const dealer = form.elements.dealer;
  const plan = JSON.parse(form.dataset.plan || "null");
  if (dealer && dealer.tagName === "SELECT" && plan) dealer.value = String(Rules.nextDealer(plan.rules, Number(dealer.value)));
  $$("input[type=radio]", form).forEach((input) => { input.checked = input.value === ""; });  /* "nobody", "no tute" */
  /* numbers empty, or where the form starts them (a bid at the lowest the auction allows); toggles off */
  $$("input[type=number], input[inputmode=numeric]", form).forEach((input) => { input.value = input.dataset.start || ""; });
  $$("input[type=checkbox]", form).forEach((input) => { input.checked = false; });
  restart(form);
}

function renumber(form, next) {
  /* The form's heading and the tab's title name the deal now being entered. */
  const heading = $("h1", form);
  if (heading) heading.textContent = heading.textContent.replace(/\d+/, String(next));
  document.title = document.title.replace(/\d+/, String(next));
}

function restart(form) {
  form.dataset.touched = "|";
  delete form.dataset.filledSeat;
  form.elements.idempotency_key.value = newKey();
  $$("[data-errors-for]", form).forEach((box) => box.replaceChildren());
  form.dispatchEvent(new Event("change"));
}

function fill(node, values) {
  /* Put each player's seat and name where the template says @seat and @name (as text, never as markup). */
  const swap = (text) => text.replace(/@seat|@name/g, (key) => values[key]);
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let current = node; current; current = walker.nextNode()) {
    if (current.nodeType === Node.TEXT_NODE) current.textContent = swap(current.textContent);
    else Array.from(current.attributes).forEach((attribute) => { attribute.value = swap(attribute.value); });
  }
  return node;
}

function numberButtons(row, cards) {
  /* One button for each count from 0 to the cards in hand. */
  $$(".button-row", row).forEach((buttons) => {
    const first = $("label.choice", buttons);
    $$("label.choice", buttons).slice(1).forEach((label) => label.remove());
    for (let value = 1; value <= cards; value += 1) {
      const copy = first.cloneNode(true);
      $("input", copy).value = String(value);
      $("span", copy).textContent = String(value);
      buttons.appendChild(copy);
    }
  });
}

function nextBidsDeal(form) {
  /* A deal whose bids come before play (Pocha): the next deal's bids, on this same page: the next
     dealer, the bidding order and the cards in hand from the schedule, with the buttons to match. */
  const plan = JSON.parse(form.dataset.plan || "null");
  const template = $("#next-deal");
  const next = Number(form.elements.number.value) + 1;
  const cards = plan && Rules.cardsFor(plan.rules, next);
  const button = $("button[type=submit]", form);
  if (!template || !cards) { button.disabled = true; return; }  /* the schedule is over */
  const dealer = Rules.nextDealer(plan.rules, Number(form.elements.dealer.value));
  const order = plan.rules.bidding_order[dealer];
  const parts = template.content;
  /* what the tricks page holds instead: the bids and trump as sent, which this deal has yet to get */
  $$("input[type=hidden]", form).filter((input) => /^(bids|tricks)-\d+$|^trump$/.test(input.name)).forEach((input) => input.remove());
  const rows = $(".seat-rows", form);
  if (!$("input[type=radio][name=trump]", form)) rows.before($("fieldset.suits", parts).cloneNode(true));
  $$("input[name=trump]", form).forEach((input) => { input.checked = input.value === "none"; });
  $$(":scope > .seat-row", rows).forEach((row) => row.remove());
  let tricks = $("#offline-tricks", form);
  if (!tricks) { tricks = Object.assign(document.createElement("div"), { id: "offline-tricks" }); rows.append(tricks); }
  tricks.hidden = true;
  tricks.replaceChildren();
  const [bidRow, trickRow] = $$(".seat-row", parts);
  order.forEach((seat) => {
    const values = { "@seat": String(seat), "@name": plan.names[seat] };
    const bid = fill(bidRow.cloneNode(true), values);
    $(".deals-mark", bid).hidden = seat !== dealer;
    numberButtons(bid, cards);
    tricks.before(bid);
    const trick = fill(trickRow.cloneNode(true), values);
    numberButtons(trick, cards);
    tricks.append(trick);
  });
  rows.dataset.cards = String(cards);
  rows.dataset.dealer = String(dealer);
  form.elements.dealer.value = String(dealer);
  form.elements.number.value = String(next);
  renumber(form, next);
  const one = new Intl.PluralRules(document.documentElement.lang || undefined).select(cards) === "one";
  const info = $("#deal-cards", form);
  if (info) info.textContent = fillIn(one ? form.dataset.dealsOne : form.dataset.dealsOther, { name: plan.names[dealer], num: cards });
  const hint = $("#hook-hint", form);
  if (hint) hint.textContent = fillIn(form.dataset.hookHint, { cards });
  form.action = form.dataset.bidsAction;
  form.dataset.step = "bids";
  button.textContent = form.dataset.saveBids;
  restart(form);
  form.scrollIntoView({ block: "start" });
}

function toTricksOffline(form) {
  /* Pocha without a connection: the bids are kept; enter the tricks on the same page. */
  const tricks = $("#offline-tricks", form);
  if (!tricks) return;
  tricks.hidden = false;
  /* the bids and the trump are kept as they were: the tricks must go with them */
  $$("fieldset.bids input, input[type=radio][name=trump]", form).forEach((input) => { if (!input.checked) input.disabled = true; });
  form.action = form.dataset.tricksAction;
  form.dataset.step = "tricks";
  form.elements.idempotency_key.value = newKey();
  $("button[type=submit]", form).textContent = form.dataset.saveTricks.replace(/\d+/, form.elements.number.value);
  tricks.scrollIntoView({ block: "start" });
}

/* ---------------------------------------------------------------- the kept deals and their provisional totals */

function keptDeal(plan, body) {
  /* Read a kept deal back from its form fields, as the match document holds it (with its number);
     null for bids waiting for their tricks. */
  const number = Number(body.get("number"));
  if (plan.bids_first && !body.has("tricks-0")) return null;
  const deal = Rules.formDeal(plan.rules, (name) => body.get(name), { cards: Rules.cardsFor(plan.rules, number) });
  return { number, deal };
}

function dealLine(template, plan, kept, scores) {
  return `${fillIn(template, { number: kept.number })}: ${plan.side_names.map((name, side) => `${name} ${scores[side]}`).join(" · ")}`;
}

function keptLines(path, template) {
  /* One line for each deal of the match kept on this phone, as the kept-deals box says it. */
  const pagePlan = $("#kept-deals") && $("#kept-deals").dataset.path === path ? JSON.parse($("#kept-deals").dataset.plan) : null;
  const seen = new Set();
  return load(QUEUE).filter((item) => matchPath(item.action) === path).map((item) => {
    const body = new URLSearchParams(item.body);
    /* kept before the plan carried the rules: the page's; on a page without rules.js, the deal's number alone */
    const plan = typeof Rules === "undefined" ? null : item.plan && item.plan.rules ? item.plan : pagePlan;
    const kept = plan && keptDeal(plan, body);
    if (kept) { seen.add(kept.number); return dealLine(template, plan, kept, Rules.score(plan.rules, kept.deal).scores); }
    const number = Number(body.get("number"));
    if (seen.has(number) || (plan && plan.bids_first)) return null;  /* bids, whose tricks follow */
    seen.add(number);
    return fillIn(template, { number });
  }).filter(Boolean);
}

function keptCount(path) {
  /* The deals of the match kept on this phone (a Pocha deal's bids and tricks are one deal). */
  return new Set(load(QUEUE).filter((item) => matchPath(item.action) === path)
    .map((item) => new URLSearchParams(item.body).get("number"))).size;
}

function showKept() {
  /* The deals kept on this phone for this match, and the totals they give: on the scoreboard, as its
     standings, next deal and deal table; under the deal form (and on a scoreboard that cannot say
     them: see below), as a list and its totals. */
  const box = $("#kept-deals");
  if (!box || typeof Rules === "undefined") return;
  const plan = JSON.parse(box.dataset.plan);
  const items = load(QUEUE).filter((item) => matchPath(item.action) === box.dataset.path);
  const mine = items.map((item) => keptDeal(plan, new URLSearchParams(item.body))).filter(Boolean);
  /* The page's totals are those the kept deals follow only if they are the very next deals: a deal
     entered meanwhile on another phone, or kept deals sent in part before this copy was kept, and the
     totals would be another match's. Nor does the scoreboard stand a refused deal among the others, as
     if it were to be stored as it is: the banner says what to do with it, and the list shows it. */
  const follows = mine.length > 0 && mine.every((kept, index) => kept.number === plan.next_number + index);
  const refusal = load(REFUSAL, null);
  const onBoard = follows && !(refusal && refusal.path === box.dataset.path);
  const note = $("#provisional-note");
  if (note && !note.hidden && !onBoard) { location.reload(); return; }  /* the board said what no longer holds */
  box.hidden = mine.length === 0;
  if (!mine.length) return;
  const standing = Rules.follow(plan.rules, { totals: plan.totals, juegos: plan.juegos, dealt: plan.next_number - 1 },
    mine.map((kept) => kept.deal));
  if (onBoard && showProvisionalBoard(plan, mine, standing, pendingBids(plan, items, standing))) {
    box.hidden = true;
    return;
  }
  const lines = mine.map((kept, index) => dealLine(box.dataset.keptDeal, plan, kept, standing.scores[index] || Rules.score(plan.rules, kept.deal).scores));
  const list = Object.assign(document.createElement("ul"), { className: "list" });
  list.replaceChildren(...lines.map((line) => Object.assign(document.createElement("li"), { textContent: line })));
  box.replaceChildren(Object.assign(document.createElement("h2"), { textContent: box.dataset.keptTitle }), list);
  if (follows) {
    const { totals, juegos } = standing;
    const count = (name, num) => fillIn(saying(box, name, num), { num });
    const said = plan.side_names.map((name, side) => (juegos ? `${name} ${count("juegos", juegos[side])}, ${count("points", totals[side])}` : `${name} ${totals[side]}`));
    box.append(Object.assign(document.createElement("p"), { className: "provisional", textContent: `${box.dataset.provisional}: ${said.join(" · ")}` }));
  }
}

function pendingBids(plan, items, standing) {
  /* The bids of the next deal, kept on this phone without its tricks (a game whose bids come first), or null. */
  const last = items.length ? new URLSearchParams(items[items.length - 1].body) : null;
  if (!plan.bids_first || !last || last.has("tricks-0") || Number(last.get("number")) !== standing.dealt + 1) return null;
  return plan.names.map((_, seat) => last.get(`bids-${seat}`));
}

function sayAgain(node, values, count = null) {
  /* Say a sentence of the page again with other values (its data-say, or data-say-one and -other by `count`). */
  if (!node) return;
  const template = count === null ? node.dataset.say : saying(node, "say", count);
  if (template) node.textContent = fillIn(template, values);
}

function showProvisionalBoard(plan, mine, standing, bids) {
  /* The scoreboard as the deals kept on this phone leave the match, marked as provisional: the
     standings ranked as the server ranks them (the winners first, once the kept deals end the match;
     then juegos where the match counts them, else totals), with the next deal's bids kept so far, who
     deals next, the one way on (the deal form kept on the phone), and the kept deals in the deal
     table, each marked as not sent. The server says it all again once they are sent. The chart, of
     the deals sent, gives way. False off the scoreboard. */
  const table = $("#totals table.standings");
  if (!table) return false;
  const note = $("#provisional-note");
  if (note) { sayAgain(note, { num: mine.length }, mine.length); note.hidden = false; }
  $("#totals").classList.add("provisional");
  $$(".chart-box").forEach((chart) => { chart.hidden = true; });
  const scores = standing.juegos || standing.totals;
  const key = (side) => [standing.winners.includes(side) ? 1 : 0, scores[side]];
  const above = (one, other) => one[0] > other[0] || (one[0] === other[0] && one[1] > other[1]);
  const rows = $$("tr.standing", table);
  rows.forEach((row) => {
    const side = Number(row.dataset.side);
    row.dataset.rank = String(1 + rows.filter((other) => above(key(Number(other.dataset.side)), key(side))).length);
    $(".rank", row).textContent = row.dataset.rank;
    const won = standing.winners.includes(side);
    row.classList.toggle("winner", won);
    $$(".badge", row).forEach((badge) => badge.remove());
    if (won && note) $(".fit", row).append(" ", Object.assign(document.createElement("span"), { className: "badge", textContent: note.dataset.winner }));
    $(".score", row).textContent = String(scores[side]);
    if (standing.juegos && $(".points", row)) $(".points", row).textContent = String(standing.totals[side]);
    const bid = $(".bid", row);
    if (bid) {
      const sideBid = bids && plan.sides[side].length === 1 ? bids[plan.sides[side][0]] : null;
      bid.replaceChildren(...(sideBid === null ? [] : [Object.assign(document.createElement("span"), { textContent: sideBid })]));
    }
  });
  $$(".bid", table).forEach((cell) => { cell.hidden = !bids; });
  rows.sort((one, other) => Number(one.dataset.rank) - Number(other.dataset.rank) || Number(one.dataset.side) - Number(other.dataset.side))
    .forEach((row) => row.parentNode.append(row));
  const next = $("#next");
  if (next) {
    const dealer = standing.next_dealer;
    const over = standing.finished || dealer === null;
    const said = $(".next-dealer", next);
    if (over && said) said.textContent = said.dataset.sayOver || "";
    else sayAgain(said, { number: standing.dealt + 1, name: plan.names[dealer] });
    const cards = $(".next-cards", next);
    if (cards) {
      cards.hidden = over || !standing.next_cards;
      const first = plan.rules.bidding_order ? plan.rules.bidding_order[dealer][0] : null;
      if (!cards.hidden) sayAgain(cards, { num: standing.next_cards, name: plan.names[first] }, standing.next_cards);
    }
    $$(".bids-sum, .next-step", next).forEach((node) => { node.hidden = true; });
    const button = $("#kept-next", next);
    if (button) { sayAgain(button, { number: standing.dealt + 1 }); button.hidden = over; }
  }
  showKeptRows(plan, mine, standing);
  return true;
}

function showKeptRows(plan, mine, standing) {
  /* Each kept deal as a row of the deal table, after the sent ones, marked as not sent. */
  const template = $("#kept-row");
  const body = $("table.deals tbody");
  if (!template || !body) return;
  body.closest(".table-wrap").hidden = false;
  const none = $("#no-deals");
  if (none) none.hidden = true;
  $$("tr.unsent", body).forEach((row) => row.remove());
  let running = plan.totals.slice();
  mine.forEach((kept, index) => {
    const scores = standing.scores[index];
    if (!scores) return;  /* after the match's end: the server will refuse it, and say so */
    running = running.map((total, side) => total + scores[side]);
    const row = template.content.firstElementChild.cloneNode(true);
    $("[data-fill=number]", row).textContent = String(kept.number);
    $$("td", row).filter((cell) => !cell.classList.contains("summary")).forEach((cell, side) => {
      const put = (name, text) => { const node = $(`[data-fill=${name}]`, cell); if (node) node.textContent = text; };
      /* a deal of bids and tricks says each player's, as the sent rows do */
      put("detail", kept.deal.bids && kept.deal.tricks ? `${kept.deal.bids[side]}/${kept.deal.tricks[side]}` : "");
      put("score", template.dataset.signed && scores[side] >= 0 ? `+${scores[side]}` : String(scores[side]));
      put("running", String(running[side]));
      cell.classList.toggle("lost", scores[side] < 0);
    });
    body.append(row);
  });
}

/* ---------------------------------------------------------------- sending, in order */

let sending = false;
let sendAgain = false;  /* asked to send while a send was under way (the connection came back meanwhile) */

async function reasonOf(response) {
  /* The refusal's own words: the messages on the page (or in the JSON) the server answered with. */
  try {
    const text = await response.text();
    const page = new DOMParser().parseFromString(text, "text/html");
    const said = $$(".error", page).map((node) => node.textContent.replace(/^⚠\s*/, "").trim()).filter(Boolean);
    return [...new Set(said)].join(" ");
  } catch (e) { return ""; }
}

async function freshToken() {
  /* The session's CSRF token as the server gives it now: the page this runs on may be a copy
     kept on the phone, from before the phone signed in again. Undefined without an answer. */
  const url = ($("#offline-banner") || { dataset: {} }).dataset.tokenUrl;
  if (!url) return null;
  try {
    const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const meta = $("meta[name=csrf-token]", page);
    return response.ok && meta ? meta.content : null;
  } catch (e) { return undefined; }
}

async function sendQueue() {
  if (load(REFUSAL, null)) return;
  if (sending) { sendAgain = true; return; }
  sending = true;
  sendAgain = false;
  let items = load(QUEUE);
  let sent = 0;
  try {
    if (!items.length) return;
    const fresh = await freshToken();
    if (fresh === undefined) return;  /* still no connection: try again when it returns */
    const meta = $("meta[name=csrf-token]");
    const token = fresh || (meta && meta.content);
    items = load(QUEUE);  /* a deal may have been kept meanwhile */
    while (items.length) {
      const item = items[0];
      const body = new URLSearchParams(item.body);
      if (token) body.set("csrf_token", token);  /* the session may be newer than the deal */
      let response;
      try {
        response = await fetch(item.action, {
          method: "POST", body, credentials: "same-origin", headers: { "Idempotency-Key": item.key },
        });
      } catch (e) {
        return;  /* still no connection: try again when it returns */
      }
      if (response.status === 409 || response.status === 422) {
        /* stop here: this deal and every one after it stay on the phone, to be corrected, or
           dropped when the match ended meanwhile */
        const over = response.headers.get("X-Match-Over");
        store(REFUSAL, { key: item.key, number: body.get("number"), reason: await reasonOf(response),
                         path: matchPath(item.action), over: over === "finished" || over === "abandoned" ? over : null });
        showRefusal();
        showKept();  /* a scoreboard that said the kept deals goes back to what is stored */
        return;
      }
      if (!stored(response, item.action)) return;  /* the server is not ready, or the session ended: later */
      sent += 1;
      items = items.slice(1);
      store(QUEUE, items);
    }
  } finally {
    sending = false;
    /* a send that failed may have missed the connection's return: try once more at once,
       rather than wait for the next periodic try */
    if (sendAgain && !sent) setTimeout(sendQueue, 0);
  }
  if (sent) { banner("sent"); setTimeout(() => location.reload(), 600); }
}

function bannerButton(text, className, onClick) {
  const button = Object.assign(document.createElement("button"), { type: "button", className, textContent: text });
  button.addEventListener("click", onClick);
  return button;
}

function showRefusal() {
  /* Say which kept deal was refused and why, list the deals kept for its match, and offer what
     settles it: for a wrong deal, to correct it on its deal form or to drop it; for a match
     that ended on another phone, to drop every deal kept for it (they can no longer be entered). */
  const refusal = load(REFUSAL, null);
  const node = $("#offline-banner");
  if (!refusal || !node) return;
  const left = load(QUEUE).length;
  const count = keptCount(refusal.path);
  const actions = Object.assign(document.createElement("p"), { className: "banner-actions" });
  let message;
  if (refusal.over) {
    message = fillIn(saying(node, refusal.over, count), { num: count });
    actions.append(bannerButton(fillIn(saying(node, "dropAll", count), { num: count }), "button small", () => {
      if (!confirm(fillIn(saying(node, "dropAllConfirm", count), { num: count }))) return;
      store(QUEUE, load(QUEUE).filter((item) => matchPath(item.action) !== refusal.path));
      localStorage.removeItem(REFUSAL);
      node.hidden = true;
      /* the match's deal form would still offer its next deal: its scoreboard says how it ended */
      if ($$("form[data-offline='deal']").some((form) => matchPath(form.action) === refusal.path)) {
        location.assign(scoreboardOf(refusal.path));
        return;
      }
      sendQueue();
    }));
    closeDealForm(refusal.path, node.dataset.over);
  } else {
    message = fillIn(node.dataset.refused, { number: refusal.number, reason: refusal.reason || "", left });
    actions.append(
      Object.assign(document.createElement("a"), { href: `${refusal.path}deal`, className: "button small", textContent: node.dataset.correct }),
      bannerButton(node.dataset.drop, "button small", () => {
        if (!confirm(node.dataset.dropConfirm)) return;
        const items = load(QUEUE);
        if (items.length && items[0].key === refusal.key) store(QUEUE, items.slice(1));
        localStorage.removeItem(REFUSAL);
        node.hidden = true;
        showKept();
        sendQueue();
      }));
  }
  const parts = [Object.assign(document.createElement("p"), { textContent: message })];
  /* the kept deals, where the page does not list them already */
  const box = $("#kept-deals");
  const lines = box && box.dataset.path === refusal.path && !refusal.over ? [] : keptLines(refusal.path, node.dataset.keptDeal);
  if (lines.length) {
    const list = document.createElement("ul");
    list.setAttribute("aria-label", node.dataset.keptTitle);
    list.replaceChildren(...lines.map((line) => Object.assign(document.createElement("li"), { textContent: line })));
    parts.push(list);
  }
  node.replaceChildren(...parts, actions);
  node.hidden = false;
}

function closeDealForm(path, reason) {
  /* The deal form of a match that ended meanwhile offers no next deal: its Save is off, and says why. */
  $$("form[data-offline='deal']").filter((form) => matchPath(form.action) === path).forEach((form) => {
    $("button[type=submit]", form).disabled = true;
    if ($(".match-over", form)) return;
    const note = Object.assign(document.createElement("p"), { className: "error match-over", textContent: reason });
    note.setAttribute("role", "alert");
    $(".save-bar", form).prepend(note);  /* where Save is, which stays in sight */
  });
  const box = $("#kept-deals");
  if (box && box.dataset.path === path) box.hidden = true;  /* no totals to come: the banner lists them */
}

function correctRefused(form) {
  /* The deal form of the match whose kept deal was refused: fill it with that deal as it was
     kept; once it is stored, the deals kept after it are sent. */
  const refusal = load(REFUSAL, null);
  const item = load(QUEUE)[0];
  if (!refusal || !item || item.key !== refusal.key || matchPath(item.action) !== matchPath(form.action)) return;
  form.dataset.correcting = refusal.key;
  if ($(".error", form)) return;  /* the correction itself came back refused: keep what was typed */
  new URLSearchParams(item.body).forEach((value, name) => {
    if (["csrf_token", "number", "version", "idempotency_key"].includes(name)) return;
    const fields = $$(`[name="${CSS.escape(name)}"]`, form);
    fields.forEach((field) => {
      if (field.type === "radio" || field.type === "checkbox") field.checked = field.value === value;
      else if (field.type !== "hidden") field.value = value;
    });
  });
  form.dispatchEvent(new Event("change"));
}

function readyAfterKept(form) {
  /* A deal form opened while deals of its match wait on the phone (most often its copy kept by
     the service worker, reloaded without a connection, as it was when last online): ready for
     the deal after them, as it is after keeping the last one. */
  const refusal = load(REFUSAL, null);
  if (form.dataset.correcting || (refusal && refusal.path === matchPath(form.action))) return;
  const bodies = load(QUEUE).filter((item) => matchPath(item.action) === matchPath(form.action))
    .map((item) => new URLSearchParams(item.body));
  const last = bodies[bodies.length - 1];
  if (!last || Number(last.get("number")) < Number(form.elements.number.value)) return;
  if (!(JSON.parse(form.dataset.plan || "null") || {}).bids_first) {
    form.elements.number.value = last.get("number");
    if (form.elements.dealer && last.has("dealer")) form.elements.dealer.value = last.get("dealer");
    readyForNext(form);
    return;
  }
  const done = bodies.filter((body) => body.has("tricks-0")).pop();
  if (done && Number(done.get("number")) >= Number(form.elements.number.value)) {
    form.elements.number.value = done.get("number");
    form.elements.dealer.value = done.get("dealer");
    nextBidsDeal(form);
  }
  if (last === done) return;
  /* the bids of the next deal are kept, its tricks are not: on to them, with the bids as kept */
  last.forEach((value, name) => {
    if (name === "trump" || /^bids-\d+$/.test(name)) $$(`input[type=radio][name="${CSS.escape(name)}"]`, form).forEach((input) => { input.checked = input.value === value; });
  });
  form.dispatchEvent(new Event("change"));
  toTricksOffline(form);
}

function setupOffline() {
  $$("form[data-offline='deal']").forEach((form) => {
    form.elements.idempotency_key.value = newKey();
    correctRefused(form);
    readyAfterKept(form);
    form.addEventListener("submit", async (event) => {
      if (event.defaultPrevented) return;
      event.preventDefault();
      const button = $("button[type=submit]", form);
      const correcting = form.dataset.correcting;
      /* deals already waiting on the phone go first: a new one joins them, in order; on a copy
         kept on the phone every deal does, to be sent with the session's current token */
      const waiting = !correcting && (keptPage() || load(QUEUE).some((item) => matchPath(item.action) === matchPath(form.action)));
      button.disabled = true;
      let response = null;
      if (!waiting) {
        try {
          response = await fetch(form.action, {
            method: "POST", body: new URLSearchParams(new FormData(form)), credentials: "same-origin",
            headers: { "Idempotency-Key": form.elements.idempotency_key.value },
          });
        } catch (e) { /* no answer: keep it */ }
      }
      button.disabled = false;
      if (correcting && (response === null || response.status >= 500)) {
        /* the corrected deal takes the refused one's place, first in line */
        const items = load(QUEUE);
        items[0] = { action: form.action, body: new URLSearchParams(new FormData(form)).toString(), key: form.elements.idempotency_key.value };
        store(QUEUE, items);
        localStorage.removeItem(REFUSAL);
        delete form.dataset.correcting;
        banner("queued");
        showKept();
      } else if (response === null || response.status >= 500) {
        keep(form);
        if (form.dataset.step === "bids") toTricksOffline(form);
        else if ((JSON.parse(form.dataset.plan || "null") || {}).bids_first) nextBidsDeal(form);
        else readyForNext(form);
        if (waiting) sendQueue();
      } else if (stored(response, form.action)) {
        if (correcting) {  /* the refused deal, corrected: the ones kept after it follow */
          store(QUEUE, load(QUEUE).slice(1));
          localStorage.removeItem(REFUSAL);
          await sendQueue();
        }
        location.assign(response.url);
      } else if (response.ok) {
        keep(form);  /* the session ended: the deal waits on the phone while its owner signs in again */
        location.assign(response.url);
      } else {
        form.submit();  /* refused: the page with its messages, every value as typed */
      }
    });
  });
  window.addEventListener("offline", () => banner("offline"));
  window.addEventListener("online", sendQueue);
  setInterval(() => { if (navigator.onLine && load(QUEUE).length) sendQueue(); }, 20000);
  if (!navigator.onLine) banner("offline");
  showKept();
  showRefusal();
  if (navigator.onLine) sendQueue();
}
