/* Scorekeeper without a connection, for a whole evening: deals saved while the connection is
   down are kept on this phone, in order, and sent when it returns.

   A deal form is sent with fetch and an idempotency key. Without an answer (no connection,
   or a server that cannot be reached) the deal is kept and the form is made ready for the
   next deal from the plan the page carries (the dealer rotation and, for Pocha, the cards
   of every deal); the deals kept so far and the totals they give are shown as provisional.
   Sending stops at a deal the server refuses (409, 422): it and every deal after it stay on
   the phone, and the deal form offers to correct it. Anything else is tried again later.
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

function keep(form) {
  const body = new URLSearchParams(new FormData(form)).toString();
  store(QUEUE, load(QUEUE).concat([{ action: form.action, body, key: form.elements.idempotency_key.value }]));
  banner("queued");
  showKept();
}

/* ---------------------------------------------------------------- the next deal, prepared on the phone */

function readyForNext(form) {
  /* Tute: the next deal's number, the next dealer, and empty choices. */
  const next = Number(form.elements.number.value) + 1;
  const heading = $("h1", form);
  if (heading) heading.textContent = heading.textContent.replace(/\d+/, String(next));
  form.elements.number.value = String(next);
  const button = $("button[type=submit]", form);
  button.textContent = button.textContent.replace(/\d+/, String(next));
  const dealer = form.elements.dealer;
  if (dealer && dealer.tagName === "SELECT") dealer.selectedIndex = (dealer.selectedIndex + 1) % dealer.options.length;
  $$("input[type=radio]", form).forEach((input) => { input.checked = input.value === ""; });  /* "nobody", "no tute" */
  $$("input[type=number], input[inputmode=numeric]", form).forEach((input) => { input.value = ""; });
  restart(form);
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

function nextPochaDeal(form) {
  /* Pocha: the next deal's bids, on this same page: the next dealer, the bidding order and the
     cards in hand from the schedule, with the buttons to match. */
  const plan = JSON.parse(form.dataset.plan || "null");
  const template = $("#next-deal");
  const next = Number(form.elements.number.value) + 1;
  const cards = plan && plan.schedule[next - 1];
  const button = $("button[type=submit]", form);
  if (!template || !cards) { button.disabled = true; return; }  /* the schedule is over */
  const players = plan.names.length;
  const dealer = (Number(form.elements.dealer.value) + 1) % players;
  const order = plan.names.map((_, step) => (dealer + 1 + step) % players);
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
  const heading = $("h1", form);
  if (heading) heading.textContent = heading.textContent.replace(/\d+/, String(next));
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
  /* Read a kept deal back from its form fields; null for bids waiting for their tricks. */
  const value = (name) => body.get(name);
  const seats = plan.names.map((_, seat) => seat);
  if (plan.game === "pocha") {
    if (!body.has("tricks-0")) return null;
    return { number: Number(value("number")), trump: value("trump"),
             bids: seats.map((s) => Number(value(`bids-${s}`))), tricks: seats.map((s) => Number(value(`tricks-${s}`))) };
  }
  const declared = value("tute_seat") ? { seat: Number(value("tute_seat")), kind: value("tute_kind") } : null;
  let points = [number(value("points0") || ""), number(value("points1") || "")];
  if (!declared && points[1] === null && points[0] !== null) points[1] = 120 - points[0];
  if (!declared && points[0] === null && points[1] !== null) points[0] = 120 - points[1];
  points = points.map((p) => p || 0);
  const cantes = ["oros", "copas", "espadas", "bastos"].filter((suit) => value(`cante_${suit}`))
    .map((suit) => ({ suit, seat: Number(value(`cante_${suit}`)) }));
  const lastTrick = value("last_trick") === null || value("last_trick") === "" ? null : Number(value("last_trick"));
  return { number: Number(value("number")), trump: value("trump"), points, lastTrick, cantes, tute: declared };
}

function provisionalScores(plan, deal) {
  /* The deal's score per side, as RULES.md gives it (the server scores it again when it is sent). */
  const o = plan.options;
  if (plan.game === "pocha") {
    return { scores: deal.bids.map((bid, seat) => {
      const tricks = deal.tricks[seat];
      const score = bid === tricks ? o.exact_base + o.per_trick * tricks : -o.miss_per_trick * Math.abs(bid - tricks);
      return o.oros_double && deal.trump === "oros" ? 2 * score : score;
    }), juegos: null };
  }
  const sideOf = (seat) => plan.sides.findIndex((side) => side.includes(seat));
  const scores = deal.points.slice();
  if (deal.lastTrick !== null) scores[deal.lastTrick] += o.last_trick_bonus;
  deal.cantes.forEach((cante) => { scores[sideOf(cante.seat)] += cante.suit === deal.trump ? 40 : 20; });
  const winner = deal.tute ? sideOf(deal.tute.seat) : scores[0] !== scores[1] ? (scores[0] > scores[1] ? 0 : 1) : deal.lastTrick;
  const big = o.double_over_100 ? 2 : 1;
  const earned = deal.tute ? (o.tute === "match" ? 0 : big) : scores[winner] >= 101 ? big : 1;
  return { scores, juegos: scores.map((_, side) => (side === winner ? earned : 0)) };
}

function showKept() {
  /* The deals kept on this phone for this match, and the totals they give (on the scoreboard and
     under the deal form). */
  const box = $("#kept-deals");
  if (!box) return;
  const plan = JSON.parse(box.dataset.plan);
  const mine = load(QUEUE).filter((item) => matchPath(item.action) === box.dataset.path)
    .map((item) => keptDeal(plan, new URLSearchParams(item.body))).filter(Boolean);
  box.hidden = mine.length === 0;
  if (!mine.length) return;
  const totals = plan.totals.slice();
  const juegos = plan.juegos ? plan.juegos.slice() : null;
  const lines = mine.map((deal) => {
    const { scores, juegos: earned } = provisionalScores(plan, deal);
    scores.forEach((score, side) => { totals[side] += score; });
    if (juegos && earned) earned.forEach((count, side) => { juegos[side] += count; });
    return `${fillIn(box.dataset.keptDeal, { number: deal.number })}: ${plan.side_names.map((name, side) => `${name} ${scores[side]}`).join(" · ")}`;
  });
  const points = (side) => `${totals[side]} ${box.dataset.pointsWord}`;
  const standing = plan.side_names.map((name, side) => (juegos ? `${name} ${juegos[side]} ${box.dataset.juegosWord}, ${points(side)}` : `${name} ${totals[side]}`));
  const list = Object.assign(document.createElement("ul"), { className: "list" });
  list.replaceChildren(...lines.map((line) => Object.assign(document.createElement("li"), { textContent: line })));
  box.replaceChildren(
    Object.assign(document.createElement("h2"), { textContent: box.dataset.keptTitle }), list,
    Object.assign(document.createElement("p"), { className: "provisional", textContent: `${box.dataset.provisional}: ${standing.join(" · ")}` }));
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

async function sendQueue() {
  if (load(REFUSAL, null)) return;
  if (sending) { sendAgain = true; return; }
  sending = true;
  sendAgain = false;
  const token = $("meta[name=csrf-token]");
  let items = load(QUEUE);
  let sent = 0;
  try {
    while (items.length) {
      const item = items[0];
      const body = new URLSearchParams(item.body);
      if (token) body.set("csrf_token", token.content);  /* the session may be newer than the deal */
      let response;
      try {
        response = await fetch(item.action, {
          method: "POST", body, credentials: "same-origin", headers: { "Idempotency-Key": item.key },
        });
      } catch (e) {
        return;  /* still no connection: try again when it returns */
      }
      if (response.status === 409 || response.status === 422) {
        /* stop here: this deal and every one after it stay on the phone, to be corrected */
        store(REFUSAL, { key: item.key, number: body.get("number"), reason: await reasonOf(response), path: matchPath(item.action) });
        showRefusal();
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

function showRefusal() {
  /* Say which kept deal was refused and why; offer to correct it on its deal form, or to drop it
     (a match that ended or was abandoned meanwhile takes no more deals). */
  const refusal = load(REFUSAL, null);
  const node = $("#offline-banner");
  if (!refusal || !node) return;
  const left = load(QUEUE).length;
  const drop = Object.assign(document.createElement("button"), { type: "button", className: "button small", textContent: node.dataset.drop });
  drop.addEventListener("click", () => {
    if (!confirm(node.dataset.dropConfirm)) return;
    const items = load(QUEUE);
    if (items.length && items[0].key === refusal.key) store(QUEUE, items.slice(1));
    localStorage.removeItem(REFUSAL);
    node.hidden = true;
    showKept();
    sendQueue();
  });
  node.replaceChildren(
    document.createTextNode(fillIn(node.dataset.refused, { number: refusal.number, reason: refusal.reason || "", left })),
    document.createTextNode(" "),
    Object.assign(document.createElement("a"), { href: `${refusal.path}deal`, textContent: node.dataset.correct }),
    document.createTextNode(" "), drop);
  node.hidden = false;
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

function setupOffline() {
  $$("form[data-offline='deal']").forEach((form) => {
    form.elements.idempotency_key.value = newKey();
    correctRefused(form);
    form.addEventListener("submit", async (event) => {
      if (event.defaultPrevented) return;
      event.preventDefault();
      const button = $("button[type=submit]", form);
      const correcting = form.dataset.correcting;
      /* deals already waiting on the phone go first: a new one joins them, in order */
      const waiting = !correcting && load(QUEUE).some((item) => matchPath(item.action) === matchPath(form.action));
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
        else if (form.dataset.liveCheck === "pocha") nextPochaDeal(form);
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
  showKept();
  showRefusal();
  if (navigator.onLine) sendQueue();
}
