// scorekeeper: the service worker (served at /sw.js, RELEASE written in above).
// - The app's files: from the cache of this release (cache first); a new
//   release is a new service worker, which waits until the player reloads
//   ("A new version is ready: reload") and then deletes the old caches.
// - Pages (home, help, games and their deal forms): from the network, kept for
//   offline; without a network, the copy kept (or "Not on this phone"). Never
//   the pages listed in RELEASE.fresh (a new game, a restore): their forms
//   must come from the server. A game's page and its copy of the game
//   (offline.json) are kept as one pair, of one version (keepPair).
// - The engine (Pyodide, the rules archive): cached when first fetched, which
//   happens once per phone in the background after the first game page is idle
//   (every game opened is kept, with no tap), at its first need under Save-Data or
//   a metered connection, or when the app is installed; the cache serves every game.
// - The API is never cached. Background Sync sends the outbox (outbox.js).
"use strict";

importScripts(RELEASE.outbox);

var STATIC = "sk-static-" + RELEASE.version;
var RULES = "sk-rules-" + RELEASE.version;
var PYODIDE = "sk-pyodide-" + RELEASE.pyodide.split("/").filter(Boolean).pop();
var PAGES = "sk-pages";  // pages kept across releases: the games this phone opened
// The engine's memory after start-up (engine-worker.js), for this engine and Pyodide only.
var SNAPSHOT = "sk-snapshot-" + RELEASE.engine.split("/").pop() + "-" + PYODIDE.slice("sk-pyodide-".length);
var CURRENT = [STATIC, RULES, PYODIDE, PAGES, SNAPSHOT];
var ROOT = RELEASE.root;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(STATIC).then(function (cache) {
    return cache.addAll(RELEASE.precache.map(function (url) {
      return new Request(url, { cache: "reload", credentials: "same-origin" });
    }));
  }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    var old = names.filter(function (n) { return n.indexOf("sk-") === 0 && CURRENT.indexOf(n) < 0; });
    var hadRules = old.some(function (n) { return n.indexOf("sk-rules-") === 0; });
    var dropped = old.map(function (n) { return caches.delete(n); }).concat(dropFresh());
    return Promise.all(dropped).then(function () {
      // A phone that kept the engine gets the new one at once, not at its next offline moment.
      if (hadRules) return caches.open(RULES).then(function (c) { return c.add(RELEASE.engine); }).catch(function () {});
    });
  }).then(function () { return self.clients.claim(); }));
});

// Copies of fresh-only pages an older release kept.
function dropFresh() {
  return caches.open(PAGES).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.filter(function (r) { return isFresh(new URL(r.url).pathname); })
        .map(function (r) { return cache.delete(r); }));
    });
  });
}

self.addEventListener("message", function (event) {
  if (event.data && event.data.type === "skip-waiting") self.skipWaiting();
  // A page that loaded while this worker was activating missed its claim: claim it now.
  if (event.data && event.data.type === "claim") event.waitUntil(self.clients.claim());
});

self.addEventListener("sync", function (event) {
  if (event.tag === "sk-outbox") event.waitUntil(SKOutbox.sync());
});

// Pages whose forms must come from the server (a new game, a restore: their CSRF token
// and choices go stale): never kept, never shown from a copy.
function isFresh(path) { return RELEASE.fresh.indexOf(path) >= 0; }

function isPage(url) {
  var path = url.pathname;
  if (isFresh(path)) return false;
  if (path === ROOT || path === ROOT + "help") return true;
  if (path.indexOf(ROOT + "games/") !== 0) return false;
  return /^games\/[^/]+(\/deals\/(new|\d+\/edit))?$/.test(path.slice(ROOT.length)) ||
    /\/offline\.json$/.test(path);
}

function cacheFirst(request, name) {
  return caches.open(name).then(function (cache) {
    return cache.match(request).then(function (hit) {
      return hit || fetch(request).then(function (response) {
        if (response.ok) cache.put(request, response.clone());
        return response;
      });
    });
  });
}

function keepable(response) {
  return response.ok && response.type === "basic" && !response.redirected;
}

function networkFirst(request, fallback, event) {
  return fetch(request).then(function (response) {
    if (keepable(response)) {
      var copy = response.clone();
      var pair = pairOf(new URL(request.url));
      var kept = pair ? keepPair(pair, copy) : caches.open(PAGES).then(function (cache) { return cache.put(request, copy); });
      event.waitUntil(kept.catch(function () {}));
    }
    return response;
  }, function (error) {
    return caches.match(request, { cacheName: PAGES }).then(function (hit) {
      return hit || caches.match(request);  // the home page and the help are also precached
    }).then(function (hit) {
      if (hit) return hit;
      if (!fallback) throw error;
      return caches.match(RELEASE.unavailable, { cacheName: STATIC });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  var path = url.pathname;
  if (path.indexOf(ROOT + "api/") === 0) return;
  if (path.indexOf(RELEASE.pyodide) === 0) {
    event.respondWith(cacheFirst(request, PYODIDE));
  } else if (path === RELEASE.engine || path === RELEASE.worker || path.indexOf(RELEASE.messages) === 0) {
    event.respondWith(path === RELEASE.engine ? cacheFirst(request, RULES) : networkFirstIn(request, RULES));
  } else if (path.indexOf(ROOT + "static/") === 0 || path === RELEASE.manifest) {
    event.respondWith(cacheFirst(request, STATIC));
  } else if (isPage(url)) {
    event.respondWith(networkFirst(request, request.mode === "navigate", event));
  }
});

// --- a game's page and its copy: one pair, of one version --------------------------------
// Offline, the phone shows a game's kept page and draws every screen from its kept copy
// (offline.json, the log its engine replays). Kept apart, a live update's fresh page
// beside an older copy would show one deal while the engine replays the one before. So
// either is kept only beside the other at the same version (each names it in the
// X-Game-Version header): the other is fetched again when they differ (the older one,
// while the game moves on); without a network for it, the pair kept before stays whole.

var VERSION = "X-Game-Version";
var PAIR_TRIES = 3;  // a game moving on under every fetch: the pair kept before stays
var pairing = {};  // per game, one step at a time: two steps' writes never interleave

// A game's page and its copy by their addresses, or null (another page, or an address
// with a query: not the page the phone opens offline).
function pairOf(url) {
  var m = /^games\/([^/]+)(\/offline\.json)?$/.exec(url.pathname.slice(ROOT.length));
  if (!m || url.search || isFresh(ROOT + "games/" + m[1])) return null;
  var page = url.origin + ROOT + "games/" + m[1];
  return { game: m[1], page: page, copy: page + "/offline.json", fetched: m[2] ? "copy" : "page" };
}

function versionOf(response) {
  var v = response ? response.headers.get(VERSION) : null;
  return v === null || v === "" ? null : Number(v);
}

// Keep ``response`` (the pair's page or copy, just fetched) with the other of its version.
function keepPair(pair, response) {
  var have = {};
  have[pair.fetched] = response;
  var step = (pairing[pair.game] || Promise.resolve()).then(function () {
    return caches.open(PAGES).then(function (cache) { return pairUp(cache, pair, have, PAIR_TRIES); });
  });
  pairing[pair.game] = step.catch(function () {});
  return step;
}

// ``have``: the page, the copy or both, fetched. Both of one version: kept. One: kept if
// the other kept is of its version, else the other is fetched. Two versions: the older
// is fetched again. A failed fetch rejects, and nothing new is kept.
function pairUp(cache, pair, have, tries) {
  if (have.page && have.copy) {
    var v = versionOf(have.page), w = versionOf(have.copy);
    if (v !== null && v === w) return keepBoth(cache, pair, have, v);
    if (!tries) return null;
    var again = { page: have.page, copy: have.copy };
    again[v === null || (w !== null && v < w) ? "page" : "copy"] = null;
    return pairUp(cache, pair, again, tries - 1);
  }
  var missing = have.page ? "copy" : "page";
  var fresh = have.page || have.copy;
  return cache.match(pair[missing]).then(function (kept) {
    var v = versionOf(fresh);
    if (v !== null && versionOf(kept) === v) return cache.put(pair[have.page ? "page" : "copy"], fresh);
    return fetch(pair[missing], { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      if (!keepable(response)) return null;
      var both = { page: have.page, copy: have.copy };
      both[missing] = response;
      return pairUp(cache, pair, both, tries);
    });
  });
}

// Both kept, unless the pair kept already is of a later version (fetched after these);
// the copy first, so that a page read between the two is never newer than its copy.
function keepBoth(cache, pair, have, version) {
  return Promise.all([cache.match(pair.page), cache.match(pair.copy)]).then(function (kept) {
    var k = versionOf(kept[0]);
    if (k !== null && k === versionOf(kept[1]) && k > version) return null;
    return cache.put(pair.copy, have.copy).then(function () { return cache.put(pair.page, have.page); });
  });
}

// The worker script and the message catalogues: fresh when online, kept for offline.
function networkFirstIn(request, name) {
  return fetch(request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      caches.open(name).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  }, function (error) {
    return caches.match(request, { cacheName: name }).then(function (hit) {
      if (hit) return hit;
      throw error;
    });
  });
}
