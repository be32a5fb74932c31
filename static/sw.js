/* Scorekeeper's service worker: keeps the app shell for when the connection is gone.
   Pages come from the network (the scoreboard must be current); when there is none, the
   copy seen last, or the offline page. Static files come from the cache first. */
const CACHE = "scorekeeper-__VERSION__";
// Pages seen last are kept apart from the shell, so that signing out can forget them.
const PAGES = "scorekeeper-pages";
const SHELL = "__SHELL__";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
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
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok) {
            const copy = response.clone();
            caches.open(PAGES).then((cache) => cache.put(request, copy));
          }
          return response;
        })
        .catch(() => caches.match(request).then((hit) => hit || caches.match("/offline")))
    );
  }
});
