/* Scorekeeper's service worker: keeps the app shell, and the pages a table needs, for when the
   connection is gone.
   Pages come from the network first: they hold one account's matches and must be current.
   Of a match still being played (the server marks those pages X-Kept-Offline), the last
   scoreboard and deal form it served are kept, so that without a connection a reload, or the
   app opened from the home screen, still lets the next deals be entered and kept on the phone
   (offline.js makes the kept deal form ready for the deal after those kept). The sign-in page
   drops them (app.js), and so does any other answer for their address (a match that ended or
   was deleted, a session that ended). Without a connection any other page is the offline page.
   Static files come from the cache first, then from the network (and the browser's own cache),
   then from the cache whatever their digest. */
const CACHE = "scorekeeper-__VERSION__";
const PAGES = "scorekeeper-pages";
const SHELL = "__SHELL__";
const OFFLINE = SHELL[SHELL.length - 1];
/* Kept with the shell by its own name, which keptNamed finds for whatever digest a page asks for:
   the rules the deal forms check by, offline too. */
const ALSO_KEPT = ["/static/rules.js"];
/* the app's own addresses start where this worker is served (/sw.js, or under a path) */
const ROOT = new URL("./", self.location).pathname;
const KEPT = /^matches\/\d+(\/deal)?$/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL.concat(ALSO_KEPT))).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  // The kept pages outlast a new version: an update may come in the middle of an evening.
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("scorekeeper-") && n !== CACHE && n !== PAGES)
        .map((n) => caches.delete(n))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/")) {
    // Pages ask for a file by an address that names its content (/static/v/<digest>/…),
    // which the browser keeps a year, and so does the shell; offline, a page from before an
    // update (another digest) gets the kept file of the same name.
    event.respondWith(caches.match(request).then((hit) => hit ||
      fetch(request).catch(() => keptNamed(fileName(url.pathname)))));
    return;
  }
  if (request.mode === "navigate" && url.pathname.startsWith(ROOT) && KEPT.test(url.pathname.slice(ROOT.length))) {
    event.respondWith(tablePage(event, url));
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
  }
});

async function tablePage(event, url) {
  /* A match's scoreboard or deal form: from the network, kept; without it, the kept copy. */
  const key = url.origin + url.pathname;  // one copy whatever the query (?trump=…)
  let response;
  try {
    response = await fetch(event.request);
  } catch (e) {
    const kept = await caches.open(PAGES).then((cache) => cache.match(key));
    return kept || caches.match(OFFLINE);
  }
  event.waitUntil(keepOrForget(key, response.clone()).then((kept) => {
    // With its scoreboard, the match's deal form as it is now: the scoreboard's button leads to it.
    if (kept && !url.pathname.endsWith("/deal")) {
      return fetch(`${key}/deal`, { credentials: "same-origin", redirect: "manual" })
        .then((form) => keepOrForget(`${key}/deal`, form), () => false);
    }
    return kept;
  }).catch(() => false));
  return response;
}

async function keepOrForget(key, response) {
  /* Keep a page the server marked as one to keep, marked in turn as kept (its body says
     data-kept-page to the scripts); forget the copy on any other answer but a server's failure. */
  const cache = await caches.open(PAGES);
  const type = response.headers.get("Content-Type") || "";
  if (response.status === 200 && response.headers.get("X-Kept-Offline") === "yes" && type.startsWith("text/html")) {
    const text = (await response.text()).replace(/<body\b/, "<body data-kept-page");
    await cache.put(key, new Response(text, { headers: { "Content-Type": type } }));
    return true;
  }
  if (response.status < 500) await cache.delete(key);  // an opaque redirect's status is 0
  return false;
}

function fileName(path) {
  return path.replace(/^\/static\/(v\/[^/]+\/)?/, "");
}

function keptNamed(name) {
  return caches.open(CACHE)
    .then((cache) => cache.keys().then((keys) => {
      const kept = keys.find((key) => fileName(new URL(key.url).pathname) === name);
      return kept ? cache.match(kept) : undefined;
    }))
    .then((response) => response || Response.error());
}
