/* Scorekeeper's service worker: keeps the app shell for when the connection is gone.
   Pages always come from the network: they hold one account's matches and must be current,
   so none is kept on the phone (a page already open keeps working, and keeps its deals);
   without a connection a new page is the offline page. Static files come from the cache first,
   then from the network (and the browser's own cache), then from the cache whatever their digest. */
const CACHE = "scorekeeper-__VERSION__";
const SHELL = "__SHELL__";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("scorekeeper-") && n !== CACHE)
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
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(SHELL[SHELL.length - 1])));
  }
});

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
