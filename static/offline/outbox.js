// scorekeeper: the outbox of entries made offline (IndexedDB), and their sync.
// Loaded by the pages and by the service worker (importScripts): no DOM here.
// Each entry carries an id made on this phone (entry_id): the server writes it
// once however often it is sent. An entry leaves the outbox only with the
// server's answer (written, or written before) or the player's decision;
// one the server refuses is kept as a conflict, and the game's later entries
// wait behind it. The ids this phone's entries were written under are remembered
// ("mine"), so that its own deals are never shown as another phone's. Every
// request of a sync gives up after SYNC_MS: a hung one is retried later.
"use strict";

(function (root) {
  var DB_NAME = "scorekeeper-offline";
  var DB_VERSION = 2;
  var SYNC_MS = 8000;  // a sync request unanswered by then is dropped, and tried again later
  var REFUSED = [400, 403, 404, 409, 412, 422];  // the entry kept, as a conflict
  var channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("sk-outbox") : null;

  function open() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DB_NAME, DB_VERSION);
      request.onupgradeneeded = function () {
        var db = request.result;
        if (!db.objectStoreNames.contains("outbox")) {
          db.createObjectStore("outbox", { keyPath: "entry_id" }).createIndex("game", "game");
          db.createObjectStore("kept", { keyPath: "game" });
        }
        // What this phone wrote: {entry_id, game, action, n?, deal?}.
        if (!db.objectStoreNames.contains("mine")) {
          db.createObjectStore("mine", { keyPath: "entry_id" }).createIndex("game", "game");
        }
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  // Run fn(store) in one transaction; resolves with fn's request result once committed.
  function withStore(name, mode, fn) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(name, mode);
        var request = fn(tx.objectStore(name));
        var result;
        if (request) request.onsuccess = function () { result = request.result; };
        tx.oncomplete = function () { db.close(); resolve(result); };
        tx.onerror = tx.onabort = function () { db.close(); reject(tx.error); };
      });
    });
  }

  function bySeq(a, b) { return a.seq - b.seq; }

  function list(game) {
    return withStore("outbox", "readonly", function (store) {
      return game ? store.index("game").getAll(game) : store.getAll();
    }).then(function (entries) { return (entries || []).sort(bySeq); });
  }

  // This page's own listeners (a BroadcastChannel never tells its own sender) and the
  // other pages' and the service worker's, through the channel: listen(fn) hears both.
  var listeners = [];
  function listen(fn) {
    listeners.push(fn);
    if (channel) channel.addEventListener("message", function (event) { fn(event.data || {}); });
  }

  function announce(what) {
    if (channel) channel.postMessage(what);
    listeners.forEach(function (fn) { try { fn(what); } catch (e) { /* a page's drawing */ } });
    if (typeof localStorage === "undefined") return;  // in the service worker
    list().then(function (entries) { localStorage.setItem("sk-outbox", String(entries.length)); });
  }

  function put(entry) {
    return withStore("outbox", "readwrite", function (store) { return store.put(entry); })
      .then(function () { announce({ type: "changed", game: entry.game }); });
  }

  function remove(entryId, game) {
    return withStore("outbox", "readwrite", function (store) { return store.delete(entryId); })
      .then(function () { announce({ type: "changed", game: game }); });
  }

  function newId() {
    var bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); });
    return "o" + Date.now().toString(36) + "-" + hex.join("");
  }

  // A new entry: {game, action, entry?, n?, version?, fields?, urls: {offline, sync}}; its
  // entry_id is a new one unless given (a form sent once under it, its answer lost).
  function add(entry) {
    entry.entry_id = entry.entry_id || newId();
    entry.seq = Date.now() + Math.random();
    entry.state = "waiting";
    entry.created = new Date().toISOString();
    return put(entry).then(function () { return entry; });
  }

  function keep(game, info) {
    return withStore("kept", "readwrite", function (store) {
      return store.put({ game: game, at: new Date().toISOString(), info: info || null });
    });
  }

  function kept() {
    return withStore("kept", "readonly", function (store) { return store.getAll(); });
  }

  // A write this phone made, by the id it was sent under (the sync's answers, the page
  // forms sent by script): ``n`` and ``deal`` for a deal, when known.
  function remember(record) {
    return withStore("mine", "readwrite", function (store) { return store.put(record); })
      .catch(function () {});
  }

  // Every write of this phone for ``game``: {entry_id: record}.
  function mine(game) {
    return withStore("mine", "readonly", function (store) { return store.index("game").getAll(game); })
      .then(function (records) {
        var byId = {};
        (records || []).forEach(function (r) { byId[r.entry_id] = r; });
        return byId;
      }, function () { return {}; });
  }

  // fetch(), then read(response), given up after SYNC_MS (a request that hangs, head or
  // body, must not stall every retry: the sync fails and is tried again later).
  function patient(url, options, read) {
    var controller = typeof AbortController === "function" ? new AbortController() : null;
    var timer = controller ? setTimeout(function () { controller.abort(); }, SYNC_MS) : null;
    if (controller) options.signal = controller.signal;
    var answered = fetch(url, options).then(read);
    function done() { clearTimeout(timer); }
    answered.then(done, done);
    return answered;
  }

  function postJSON(url, body, token) {
    return patient(url, {
      method: "POST",
      credentials: "same-origin",
      cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRFToken": token || "" },
      body: JSON.stringify(body)
    }, function (response) {
      return response.json().catch(function () { return null; }).then(function (json) {
        return { status: response.status, body: json };
      });
    });
  }

  // The game as the server has it now, and a CSRF token for this session.
  function fetchGame(entry) {
    return patient(entry.urls.offline, { credentials: "same-origin", cache: "no-store" }, function (response) {
      if (!response.ok) throw new Error("game " + response.status);
      return response.json();
    });
  }

  // Written: remembered as this phone's; an undo or a correction queued behind it takes the
  // version it made (it was queued before that version existed). A repeat's answer holds
  // the game as it is now, which may have moved past this entry: its version is taken only
  // where the game still ends with this very deal.
  function written(entry, answer, entries) {
    var body = answer.body || {};
    var deal = body.deal || null;
    var game = body.game || {};
    remember({
      entry_id: entry.entry_id, game: entry.game, action: entry.action,
      n: deal ? deal.n : null, deal: deal ? { contracts: deal.contracts, captures: deal.captures } : null
    });
    var sure = !body.repeat || (entry.action === "record" && deal && game.deals_played === deal.n);
    var follow = entries.filter(function (e) { return e.follows === entry.entry_id && e.state === "waiting"; });
    return Promise.all(follow.map(function (e) {
      delete e.follows;
      if (sure && game.version) e.version = game.version;
      return put(e);
    }));
  }

  // An entry the player discarded: an undo of it goes with it; what followed it follows
  // what it followed (or keeps the version the phone last saw).
  function discard(entry) {
    return list(entry.game).then(function (entries) {
      var work = entries.map(function (e) {
        if (e.undoes === entry.entry_id) return remove(e.entry_id, e.game);
        if (e.follows !== entry.entry_id) return null;
        if (entry.follows) e.follows = entry.follows; else delete e.follows;
        var seen = entry.refusal && entry.refusal.game;
        if (!e.follows && seen && seen.version) e.version = seen.version;
        return put(e);
      });
      return Promise.all(work);
    }).then(function () { return remove(entry.entry_id, entry.game); });
  }

  function wire(entry) {
    var body = { entry_id: entry.entry_id, action: entry.action };
    if (entry.entry) body.entry = entry.entry;
    if (entry.n) body.n = entry.n;
    if (entry.version) body.version = entry.version;
    // More facts for the server, kept with the entry at Save (``fields``): sent as they are.
    Object.keys(entry.fields || {}).forEach(function (key) {
      if (!(key in body)) body[key] = entry.fields[key];
    });
    return body;
  }

  // Send one game's waiting entries, in order; stop at the first one refused.
  function syncGame(entries, report) {
    var game = null;
    var i = 0;
    function next() {
      if (i >= entries.length) return Promise.resolve();
      var entry = entries[i++];
      if (entry.state !== "waiting") return Promise.resolve();  // a conflict holds the rest
      var sent = game ? Promise.resolve(game) : fetchGame(entry).then(function (g) { game = g; return g; });
      return sent.then(function (g) {
        return postJSON(g.urls.sync, wire(entry), g.csrf_token);
      }).then(function (answer) {
        if (answer.status === 200 || answer.status === 201) {
          report.synced += 1;
          report.games[entry.game] = true;
          return written(entry, answer, entries).then(function () {
            return remove(entry.entry_id, entry.game);
          }).then(next);
        }
        if (REFUSED.indexOf(answer.status) >= 0 && answer.body) {
          // Refused (another phone took its position, or the game moved): kept, as a
          // conflict the player decides; never sent on as the next deal by itself.
          entry.state = "conflict";
          entry.refusal = refusalOf(answer);
          report.conflicts += 1;
          return put(entry);
        }
        throw new Error("sync answered " + answer.status);  // busy, down: try again later
      });
    }
    return next();
  }

  // What the page shows of a refusal: its reasons, the game now, and for a position
  // another phone took (API.md "One deal, one position") both entries and the next one.
  function refusalOf(answer) {
    var body = answer.body;
    var refusal = { status: answer.status, errors: body.errors || [], game: body.game || null };
    if (body.position) {
      refusal.taken = { position: body.position, other: body.other || null, mine: body.mine || null,
        same: !!body.same, next: body.next || null };
    }
    return refusal;
  }

  var running = null;

  // Send every waiting entry of every game. Resolves with {synced, conflicts, games};
  // rejects when the network or the server is not there (the entries stay).
  function sync() {
    if (running) return running;
    var report = { synced: 0, conflicts: 0, games: {} };
    announce({ type: "syncing" });
    running = list().then(function (entries) {
      var games = {};
      entries.forEach(function (e) { (games[e.game] = games[e.game] || []).push(e); });
      return Object.keys(games).reduce(function (done, game) {
        return done.then(function () { return syncGame(games[game], report); });
      }, Promise.resolve());
    }).then(function () {
      announce({ type: "synced", report: report });
      return report;
    }, function (error) {
      announce({ type: "sync-failed" });
      throw error;
    });
    running.then(clear, clear);
    function clear() { running = null; }
    return running;
  }

  root.SKOutbox = {
    add: add, put: put, remove: remove, discard: discard, list: list, keep: keep, kept: kept,
    sync: sync, newId: newId, channel: channel, listen: listen, remember: remember, mine: mine
  };
})(self);
