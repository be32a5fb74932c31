/* Scorekeeper in the browser: a little vanilla JavaScript on top of pages that work without it.
   - the theme toggle, the screen kept awake, steppers on numbers;
   - the deal forms checked as they are filled in, with the rules engine's own sentences
     (the server stays the authority and checks everything again);
   - deals saved while the connection is down: see offline.js;
   - the live view of a shared match, refreshed by itself. */
"use strict";

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

/* ---------------------------------------------------------------- theme, wake lock, steppers */

const dark = () => (document.documentElement.dataset.theme || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light")) === "dark";

function setupTheme() {
  const button = $("#theme-toggle");
  if (!button) return;
  const show = () => {
    button.setAttribute("aria-pressed", String(dark()));
    button.textContent = dark() ? "☀" : "☾";
  };
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", show);
  button.addEventListener("click", () => {
    const theme = dark() ? "light" : "dark";
    document.documentElement.dataset.theme = theme;
    try { localStorage.setItem("theme", theme); } catch (e) { /* not remembered */ }
    show();
  });
  show();
}

function keepAwake() {
  if (!document.body.hasAttribute("data-wake-lock") || !("wakeLock" in navigator)) return;
  const request = () => navigator.wakeLock.request("screen").catch(() => {});
  request();
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") request(); });
}

function setupSteppers() {
  $$("button.step").forEach((button) => button.addEventListener("click", () => {
    const input = document.getElementById(button.dataset.for);
    const value = parseInt(input.value || "0", 10) + parseInt(button.dataset.step, 10);
    input.value = String(Math.max(Number(input.min || 0), Math.min(Number(input.max || 999), value)));
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }));
}

function setupMenu() {
  /* The header's menu closes when a tap lands anywhere else. */
  const menu = $("details.menu");
  if (!menu) return;
  document.addEventListener("click", (event) => { if (menu.open && !menu.contains(event.target)) menu.open = false; });
}

function setupTimeZone() {
  /* Times are shown in the browser's time zone: the server learns it from a cookie, and on the
     first page (before it knew) the times are redone here, in the page's language. */
  const body = document.body;
  let zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
  if (!/^[\w+\-/]+$/.test(zone) || body.hasAttribute("data-time-zone-fixed") || body.dataset.timeZone === zone) return;
  document.cookie = `tz=${zone}; path=/; max-age=31536000; samesite=lax`;  /* an IANA name needs no escaping */
  /* Written as the server writes them: the browser's own region where it asks for the page's
     language in one (en-GB), else the page's language. */
  const page = document.documentElement.lang || "";
  const lang = (navigator.languages || []).find((asked) => asked.split("-")[0] === page) || page || undefined;
  $$("time[datetime]").forEach((node) => {
    const instant = new Date(node.getAttribute("datetime"));
    const options = node.dataset.shows === "moment" ? { dateStyle: "medium", timeStyle: "short", timeZone: zone } : { dateStyle: "medium", timeZone: zone };
    try { node.textContent = new Intl.DateTimeFormat(lang, options).format(instant); } catch (e) { /* left as the server said */ }
  });
}

function setupSeatNames() {
  /* The new-match choices of who deals first (or holds the 2 of oros) say the names as they are typed. */
  const choices = $$("select#first_dealer, select#leader");
  const names = $$("input[id^='players-']");
  if (!choices.length || !names.length) return;
  const show = () => choices.forEach((select) => Array.from(select.options).forEach((option) => {
    if (option.dataset.seat === undefined) option.dataset.seat = option.textContent;
    const typed = names[Number(option.value)] ? names[Number(option.value)].value.trim() : "";
    option.textContent = typed ? `${typed} (${option.dataset.seat})` : option.dataset.seat;
  }));
  names.forEach((input) => input.addEventListener("input", show));
  show();
}

function setupConfirms() {
  $$("form[data-confirm]").forEach((form) => form.addEventListener("submit", (event) => {
    if (!confirm(form.dataset.confirm)) event.preventDefault();
  }));
}

/* ---------------------------------------------------------------- checking deals as they are entered */

const MESSAGES = (() => { const node = $("#rule-messages"); return node ? JSON.parse(node.textContent) : {}; })();
/* Fill a sentence's {placeholders} (as text: a name holding "$&" stays as it is). */
const fillIn = (text, values) => text.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
/* A sentence that says a count (`count`) has a form for "one" too, as the page's language counts. */
const plurals = (() => { try { return new Intl.PluralRules(document.documentElement.lang || undefined); } catch (e) { return null; } })();
const say = (id, params = {}, count = null) => {
  const one = count !== null && plurals && MESSAGES[`${id}_one`] !== undefined && plurals.select(count) === "one";
  return fillIn(MESSAGES[one ? `${id}_one` : id] || id, params);
};
const number = (value) => (/^-?\d{1,9}$/.test(String(value).trim()) ? parseInt(value, 10) : null);
const picked = (form, name) => { const input = $(`input[name="${name}"]:checked`, form); return input ? input.value : null; };

/* The rules of the match the form is for, as the engine renders them (see rules.js). */
function rulesOf(form) {
  const plan = JSON.parse(form.dataset.plan || "null");
  return plan ? plan.rules : JSON.parse(form.dataset.rules || "null");
}

/* A field's value as the form would send it: the chosen button of a group, else the field's own value. */
const fieldOf = (form) => (name) => {
  const chosen = picked(form, name);
  if (chosen !== null) return chosen;
  const field = form.elements[name];
  if (!field || field instanceof RadioNodeList) return null;
  return field.type === "checkbox" ? (field.checked ? field.value : null) : field.value;  /* a toggle off sends nothing */
};

/* The rules' problems as the form shows them: each at its field, in the page's words. Missing
   values speak only when the form is sent; a problem without a sentence on the page is left to
   the server, which says it. */
function formProblems(rules, problems, deal) {
  return problems.filter((p) => MESSAGES[p.message] !== undefined).map((p) => {
    const params = p.params.kind !== undefined ? { ...p.params, kind: p.params.kind ? say(`kind_${p.params.kind}`) : "" } : p.params;
    return { field: Rules.formField(rules, p.field, deal), late: p.missing, code: p.code, message: say(p.message, params, p.count) };
  });
}
function showErrors(form, errors, all) {
  /* Live, only the fields already touched speak (the server's messages stay until then);
     on sending, every field does. */
  $$("[data-errors-for]", form).forEach((box) => {
    const field = box.dataset.errorsFor;
    if (field === "form" || (!all && !form.dataset.touched.includes(`|${field}|`))) return;
    const mine = errors.filter((e) => e.field === field && (all || !e.late));
    box.replaceChildren(...mine.map((e) => Object.assign(document.createElement("p"), { className: "error", textContent: e.message })));
  });
}

function setupCardCounter(form) {
  /* The card counter: the sum of the counting cards tapped fills one side's points. */
  const dialog = $("#card-counter");
  const open = $(".count-open", form);
  if (!dialog || !open || typeof dialog.showModal !== "function") return;
  open.hidden = false;
  const boxes = $$("input[type=checkbox]", dialog);
  const sum = () => boxes.reduce((total, box) => total + (box.checked ? Number(box.value) : 0), 0);
  open.addEventListener("click", () => {
    boxes.forEach((box) => { box.checked = false; });
    $("#counter-sum").textContent = "0";
    dialog.showModal();
  });
  dialog.addEventListener("change", () => { $("#counter-sum").textContent = String(sum()); });
  $$("[data-closes]", dialog).forEach((button) => button.addEventListener("click", () => dialog.close()));
  $$("[data-counts-for]", dialog).forEach((button) => button.addEventListener("click", () => {
    const field = form.elements[button.dataset.countsFor];
    field.value = String(sum());
    dialog.close();
    field.dispatchEvent(new Event("input", { bubbles: true }));  /* the other side follows, the check runs */
  }));
}

/* Each kind of deal form (the rules' `kind`), as its game folder's static/form.js adds it: `check(form,
   rules)` gives the problems to show; `setup(form, rules)` readies the form; `changed(form, event,
   rules, group)`, where the form does more on a change (a side's points following the others'),
   returns the names of the fields the change touches besides its own. */
const DEAL_FORMS = {};

function setupDealForm() {
  const form = $("form[data-live-check]");
  const rules = form && typeof Rules !== "undefined" ? rulesOf(form) : null;
  const kind = form && DEAL_FORMS[form.dataset.liveCheck];
  if (!rules || !kind) return;  /* the server checks every deal anyway */
  kind.setup(form, rules);
  const check = () => kind.check(form, rules);
  form.dataset.touched = "|";
  const onChange = (event) => {
    /* A field of a list (points1, bids-2) touches its list's messages too. */
    const group = (event.target.name || "").replace(/-?\d+$/, "");
    form.dataset.touched += `${group}|${event.target.name}|`;
    if (kind.changed) form.dataset.touched += kind.changed(form, event, rules, group);
    showErrors(form, check(), false);
  };
  form.addEventListener("input", onChange);
  form.addEventListener("change", onChange);
  form.addEventListener("submit", (event) => {
    const errors = check();
    if (errors.length) {
      event.preventDefault();
      event.stopImmediatePropagation();
      showErrors(form, errors, true);
      const first = $(".error", form);
      if (first) first.scrollIntoView({ block: "center" });
    }
  });
  check();
}

/* ---------------------------------------------------------------- the live view */

function setupLiveView() {
  /* The live view's secret is after the "#", which the browser never sends: each request for the
     scoreboard carries it in its body, so it is in no request line, log or Referer. */
  const board = $("#live-board");
  if (!board) return;
  const secret = location.hash.slice(1);
  const say = (text) => {
    board.replaceChildren(Object.assign(document.createElement("p"), { className: "banner muted", textContent: text }));
    $$(".live-dot").forEach((dot) => dot.remove());
  };
  if (!secret) { say(board.dataset.missing); return; }
  const poll = async () => {
    try {
      const response = await fetch(board.dataset.liveUrl, {
        method: "POST", cache: "no-store",
        body: new URLSearchParams({ secret, version: board.dataset.version }),
      });
      if (response.status === 404) { say(board.dataset.gone); return; }  /* no longer shared: stop asking */
      if (response.status === 200) {
        const state = await response.json();
        const fresh = document.createElement("div");
        fresh.innerHTML = state.html;
        const totals = $("#totals", board);
        const newTotals = $("#totals", fresh);
        if (totals && newTotals) {  /* keep the live region itself, so that the change is announced */
          totals.innerHTML = newTotals.innerHTML;
          newTotals.replaceWith(totals);
        }
        board.replaceChildren(...fresh.childNodes);
        board.dataset.version = state.version;
        $("[data-live-title]").textContent = state.title;
        document.title = document.title.replace(/^[^·]*·/, `${state.title} ·`);
      }
    } catch (e) { /* no connection now: ask again later */ }
    setTimeout(poll, 3000);
  };
  poll();
}

/* ---------------------------------------------------------------- the whole table at one match */

function setupJoin() {
  /* An entry link carries its secret after the "#", which the browser never sends: hand it over
     in the form's body, and drop it from the address (and so from the history) first. */
  const form = $("form[data-join]");
  if (!form) return;
  const secret = location.hash.slice(1);
  history.replaceState(null, "", location.pathname);
  if (!secret) {
    $("[data-join-missing]", form).hidden = false;
    $("button", form).hidden = true;
    return;
  }
  form.elements.secret.value = secret;
  form.submit();
}

function setupWatch() {
  /* The scoreboard is open on several phones: when a deal is entered on another, reload within
     seconds (not while someone is typing here, nor while a confirmation is open). */
  const url = document.body.dataset.watchUrl;
  if (!url) return;
  const version = document.body.dataset.watchVersion;
  const busy = () => {
    if (document.activeElement && document.activeElement.matches("input, select, textarea")) return true;
    try {  /* deals kept on this phone are being sent: let that finish first */
      return (JSON.parse(localStorage.getItem("scorekeeper-queue")) || []).length > 0;
    } catch (e) { return false; }
  };
  const watch = async () => {
    try {
      const response = await fetch(`${url}?version=${version}`, { cache: "no-store", credentials: "same-origin" });
      if ((response.status === 200 || response.status === 404) && !busy()) {
        location.reload();
        return;
      }
    } catch (e) { /* no connection now: ask again later */ }
    setTimeout(watch, 2500);
  };
  setTimeout(watch, 2500);
}

/* ---------------------------------------------------------------- deals kept on the phone */

function loadScript(src) {
  /* A script of this site, run once it has loaded (the page's policy allows no other). */
  return new Promise((resolve) => {
    const script = Object.assign(document.createElement("script"), { src });
    script.addEventListener("load", resolve);
    script.addEventListener("error", resolve);  /* without it the server still checks every deal */
    document.head.append(script);
  });
}

function loadRules() {
  /* rules.js, named beside the rules data it follows, then the games' own rules (and deal forms'
     checks) built on it, in turn: where deals are entered or kept deals totted up. */
  const holder = $("form[data-rules-js]") || (waitingDeals() && $("[data-rules-js]"));
  if (!holder) return Promise.resolve();
  const games = (holder.dataset.gamesJs || "").split(" ").filter(Boolean);
  return games.reduce((loaded, src) => loaded.then(() => loadScript(src)), loadScript(holder.dataset.rulesJs));
}

function waitingDeals() {
  try { return (JSON.parse(localStorage.getItem("scorekeeper-queue")) || []).length > 0; } catch (e) { return false; }
}

function loadOffline() {
  /* offline.js is needed where deals are entered, and wherever deals wait on the phone to be
     sent; elsewhere the page stays lighter without it. */
  if (!waitingDeals() && !$("form[data-offline='deal']")) return;
  loadScript(document.body.dataset.offlineJs).then(() => setupOffline());
}

function setupKeptPages() {
  /* A page the service worker kept (see sw.js), shown without a connection, gives way to the
     live page when the connection returns (unless a deal is being typed, or deals kept on the
     phone are still to be sent: offline.js reloads once they are). The sign-in page drops the
     kept pages: a shared phone shows nobody the matches of the account that signed out. */
  if ($("[data-drop-kept-pages]") && "caches" in window) caches.delete("scorekeeper-pages").catch(() => {});
  if (!document.body.hasAttribute("data-kept-page")) return;
  window.addEventListener("online", () => {
    let waiting = true;
    try { waiting = (JSON.parse(localStorage.getItem("scorekeeper-queue")) || []).length > 0; } catch (e) { /* none */ }
    const form = $("form[data-live-check]");
    if (!waiting && !(form && form.dataset.touched !== "|")) location.reload();
  });
}

/* ---------------------------------------------------------------- sending a link */

function setupShareButtons() {
  /* Where the phone can hand a link to another app (the Web Share API), offer it: the link
     reaches the other players through their messenger. Elsewhere the link and its QR code do. */
  if (!navigator.share) return;
  $$("[data-share-url]").forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", () => {
      navigator.share({ title: button.dataset.shareTitle, url: button.dataset.shareUrl }).catch(() => {});
    });
  });
}

/* ---------------------------------------------------------------- sending a finished match's result */

function saveFile(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

function setupSendResult() {
  /* The result card in the page's theme, handed to the phone's share sheet as an image where it
     takes files, else saved; its short text goes with it, or alone from the text button. */
  const button = $("button[data-card-url]");
  const textButton = $("button[data-result-text]");
  if (textButton && (navigator.share || navigator.clipboard)) {
    textButton.hidden = false;
    textButton.addEventListener("click", () => {
      const text = textButton.dataset.resultText;
      if (navigator.share) navigator.share({ text }).catch(() => {});
      else navigator.clipboard.writeText(text).then(() => { textButton.textContent = textButton.dataset.copied; }, () => {});
    });
  }
  if (!button || !window.fetch) return;
  button.hidden = false;
  const link = $("a[data-card-link]");
  if (link) link.hidden = true;
  button.addEventListener("click", async () => {
    const name = button.dataset.cardName;
    const text = button.dataset.cardText;
    try {
      const answer = await fetch(button.dataset.cardUrl + (dark() ? "?theme=dark" : ""), { credentials: "same-origin" });
      if (!answer.ok) throw new Error(String(answer.status));
      const blob = await answer.blob();
      const file = new File([blob], name, { type: "image/png" });
      if (navigator.canShare && navigator.canShare({ files: [file] })) await navigator.share({ files: [file], text });
      else saveFile(blob, name);
    } catch (error) {
      if (error && error.name === "AbortError") return; /* the share sheet was closed */
      /* The card could not be fetched or handed over (a share sheet may refuse once the tap is
         too long past): the link saves it, and the text goes to the share sheet where it can. */
      if (link) link.hidden = false;
      if (navigator.share) navigator.share({ text }).catch(() => {});
    }
  });
}

/* ---------------------------------------------------------------- drawing the seats of a new match */

function shuffled(list) {
  const copy = list.slice();
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

function balancedPairs(names, ratings) {
  /* Seats 1 and 3 against 2 and 4: of the three ways to pair four players, the one whose pairs'
     ratings (a new player's is 0) add up closest; among equals, the first of a shuffled order. */
  const rating = (name) => ratings[name.trim().replace(/\s+/g, " ").toLowerCase()] || 0;
  const [a, b, c, d] = shuffled(names);
  const ways = [[a, b, c, d], [a, c, b, d], [a, d, b, c]];
  const gap = ([p, q, r, s]) => Math.abs(rating(p) + rating(q) - rating(r) - rating(s));
  const [p, q, r, s] = ways.reduce((best, way) => (gap(way) < gap(best) ? way : best));
  return [p, r, q, s];
}

function setupSeatDraw() {
  /* One tap draws the order of the names typed (or, for pairs, pairs as even as the players'
     ratings allow); the seats can still be changed by hand before the match starts. */
  const box = $(".seat-draw");
  if (!box) return;
  box.hidden = false;
  const ratings = JSON.parse(box.dataset.ratings || "{}");
  const said = $("#seat-draw-said");
  const inputs = $$("input[name^='players-']");
  const choice = $("select#first_dealer, select#leader");
  box.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-draw]");
    if (!button) return;
    const filled = inputs.filter((input) => input.value.trim());
    const names = filled.map((input) => input.value);
    const pairs = button.dataset.draw === "balanced";
    /* The live region says each draw again, even a second one with the same words. */
    said.textContent = "";
    if (names.length < 2 || (pairs && names.length !== 4)) {
      requestAnimationFrame(() => { said.textContent = button.dataset.first; });
      return;
    }
    /* Who was chosen to deal first (or holds the 2 of oros) keeps that part in their new seat. */
    const chosen = choice && inputs[Number(choice.value)] ? inputs[Number(choice.value)].value : null;
    const drawn = pairs ? balancedPairs(names, ratings) : shuffled(names);
    filled.forEach((input, index) => {
      input.value = drawn[index];
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    if (chosen !== null && chosen.trim()) choice.value = String(inputs.findIndex((input) => input.value === chosen));
    requestAnimationFrame(() => { said.textContent = button.dataset.said; });
  });
}

/* ---------------------------------------------------------------- start */

document.addEventListener("DOMContentLoaded", () => {
  setupTheme();
  keepAwake();
  setupSteppers();
  setupMenu();
  setupTimeZone();
  setupSeatNames();
  setupSeatDraw();
  setupConfirms();
  loadRules().then(() => {
    setupDealForm();
    loadOffline();
  });
  setupKeptPages();
  setupLiveView();
  setupShareButtons();
  setupSendResult();
  setupJoin();
  setupWatch();
  if ("serviceWorker" in navigator && document.body.dataset.sw) {
    navigator.serviceWorker.register(document.body.dataset.sw, { scope: "/" }).catch(() => {});
  }
});
