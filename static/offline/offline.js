// scorekeeper: the installable app and offline play, on every page.
// - Registers the service worker (sw.js) and offers a new version ("A new
//   version is ready: reload") only while no form is half filled.
// - The header counts the entries waiting to sync (live, as they change); they are
//   sent by themselves: at start and page show, on the `online` event, again and
//   again with a growing wait while the network fails, and by Background Sync.
// - On a game page: the game is kept on the phone with no tap (its pages; the
//   rules engine's files once per phone, once idle, unless Save-Data or a metered
//   connection: then at its first need), and, offline
//   or while entries wait, the board drawn from the phone's one game state
//   (game.js); conflicts side by side.
// - On a deal form without a network: the deal is checked by the engine in a
//   web worker (engine-worker.js), its refusals shown like the server's, and
//   kept in the outbox. Online, the forms of a game kept offline are sent by
//   script (send) under an entry id, so that a network failing under the Save
//   queues the entry instead of losing it.
// Every visible text comes from the page (data-* attributes).
"use strict";

(function () {
  var Outbox = window.SKOutbox;
  var status = document.querySelector("[data-offline-status]");
  var boot = window.SKBoot || { dirty: false };
  if (!Outbox || !status) return;
  var waitingWorker = null;
  var reloading = false;

  // --- words and numbers ------------------------------------------------------------------

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (all, key) {
      return key in values ? String(values[key]) : all;
    });
  }

  function digits(text) {
    if (document.documentElement.getAttribute("data-digits") !== "arab") return text;
    return text.replace(/[0-9]/g, function (d) { return "٠١٢٣٤٥٦٧٨٩".charAt(Number(d)); });
  }

  function score(n) {
    var text = (n < 0 ? "\u2212" : "") + digits(String(Math.abs(n)));
    return document.documentElement.dir === "rtl" ? "\u2066" + text + "\u2069" : text;
  }

  // A count or a deal's number in the page's digits, as the server's |num.
  function number(n) { return digits(String(n)); }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function json(attr) {
    try { return JSON.parse(attr || "null"); } catch (e) { return null; }
  }

  // --- the service worker and its updates -------------------------------------------------

  function register() {
    if (!("serviceWorker" in navigator)) return Promise.resolve(null);
    return navigator.serviceWorker.register(status.getAttribute("data-sw-url"), {
      scope: status.getAttribute("data-scope")
    }).then(function (registration) {
      watchUpdates(registration);
      return registration;
    }, function () { return null; });
  }

  function watchUpdates(registration) {
    if (registration.waiting && navigator.serviceWorker.controller) offerUpdate(registration.waiting);
    track(registration.installing);
    registration.addEventListener("updatefound", function () { track(registration.installing); });
  }

  function track(worker) {
    if (!worker) return;
    worker.addEventListener("statechange", function () {
      if (worker.state === "installed" && navigator.serviceWorker.controller) offerUpdate(worker);
    });
  }

  function offerUpdate(worker) {
    waitingWorker = worker;
    showUpdate();
  }

  // Never under a half-filled form: the offer waits until it is sent or left.
  function showUpdate() {
    status.querySelector("[data-update-ready]").hidden = !waitingWorker || boot.dirty;
  }

  status.querySelector("[data-update-ready]").addEventListener("click", function () {
    if (!waitingWorker || boot.dirty) return;
    reloading = true;
    waitingWorker.postMessage({ type: "skip-waiting" });
  });

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.addEventListener("controllerchange", function () {
      if (reloading) window.location.reload();
    });
  }

  document.addEventListener("input", function (event) {
    var form = event.target && event.target.form;
    if (form && form.method === "post") { boot.dirty = true; showUpdate(); }
  });
  document.addEventListener("submit", function () { boot.dirty = false; });

  // --- the outbox in the header, and its sync ---------------------------------------------

  var countLink = status.querySelector("[data-sync-count]");

  function refreshCount() {
    return Outbox.list().then(function (entries) {
      countLink.hidden = !entries.length;
      localStorage.setItem("sk-outbox", String(entries.length));  // boot.js: load me next time
      countLink.textContent = fill(countLink.getAttribute("data-text"), { count: digits(String(entries.length)) });
      if (entries.length) countLink.href = entries[0].urls.game + "#offline";
      return entries;
    }, function () { return []; });
  }

  // One sync at a time on a page: the browser's own "online" event, a tap and a conflict's
  // decision may all ask at once, and each finished sync is announced once (sk-synced).
  var syncing = null;

  // A sync that failed (no network, a server down, a request that hangs) is tried again by
  // itself, sooner first: 2 s, 4 s, 8 s … up to a minute, while entries wait.
  var RETRY_MS = 2000, RETRY_MAX = 60000, retryIn = RETRY_MS, retryTimer = null;

  function retryLater() {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(syncNow, retryIn);
    retryIn = Math.min(retryIn * 2, RETRY_MAX);
  }

  function syncNow() {
    if (syncing) return syncing;
    syncing = Outbox.list().then(function (entries) {
      if (!entries.some(function (e) { return e.state === "waiting"; })) return null;
      if (!navigator.onLine) return null;  // the "online" event sends them
      return Outbox.sync().then(function (report) {
        retryIn = RETRY_MS;
        refreshCount();
        document.dispatchEvent(new CustomEvent("sk-synced", { detail: report }));
        return report;
      }, function () { retryLater(); return null; });
    });
    syncing.then(done, done);
    function done() { syncing = null; }
    return syncing;
  }

  function askBackgroundSync() {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.sync) return registration.sync.register("sk-outbox");
    }).catch(function () {});
  }

  window.addEventListener("online", function () { retryIn = RETRY_MS; syncNow(); });
  window.addEventListener("pageshow", function (event) { if (event.persisted) syncNow(); });
  Outbox.listen(function (what) { if (what.type === "changed" || what.type === "synced") refreshCount(); });

  // --- the engine on the phone ------------------------------------------------------------

  var Engine = { worker: null, ready: null, booted: false, seq: 0, waiting: {} };
  var ENGINE_WAIT_MS = 8000;  // a Save waits no longer for an engine still starting

  function startEngine(config) {
    if (Engine.ready) return Engine.ready;
    Engine.worker = new Worker(config.worker, { type: "module" });
    Engine.ready = new Promise(function (resolve, reject) {
      Engine.worker.onmessage = function (event) {
        var message = event.data;
        if (message.type === "ready") { Engine.phases = message.phases; Engine.booted = true; resolve(message.ms); }
        else if (message.type === "failed") reject(new Error(message.error));
        else if (message.type === "answer") {
          var done = Engine.waiting[message.id];
          delete Engine.waiting[message.id];
          if (done) done(message);
        }
      };
      Engine.worker.onerror = function (event) { reject(new Error(event.message || "worker")); };
    });
    Engine.worker.postMessage({
      type: "start", pyodide: config.pyodide, archive: config.archive, messages: config.messages
    });
    Engine.ready.catch(function () { Engine.ready = null; });
    return Engine.ready;
  }

  function ask(data, fn, request) {
    return startEngine(data.engine).then(function () {
      return new Promise(function (resolve, reject) {
        var id = ++Engine.seq;
        Engine.waiting[id] = function (message) {
          if (message.error) reject(new Error(message.error)); else resolve(message.answer);
        };
        Engine.worker.postMessage({ type: "check", fn: fn, id: id, request: request });
      });
    });
  }

  // The game replayed with ``pending`` entries, then ``entry``: the engine's answer.
  function check(data, pending, entry) {
    return ask(data, "check", { game: data, pending: pending, entry: entry || null });
  }

  // A Save does not wait for an engine still starting (Pyodide can take long on a busy
  // phone): past ENGINE_WAIT_MS it is refused here, and the caller keeps the entry
  // "not checked yet" for the server to check at sync. The engine goes on starting.
  function checkSave(data, pending, entry) {
    var asked = check(data, pending, entry);
    if (Engine.booted) return asked;
    var late = new Promise(function (resolve, reject) {
      setTimeout(function () { reject(new Error("engine still starting")); }, ENGINE_WAIT_MS);
    });
    return Promise.race([asked, late]);
  }

  // The one game state every offline screen is drawn from (phone.screen): the server's
  // last log for the game, then this phone's outbox, replayed by the engine.
  function screen(data, entries) {
    return ask(data, "screen", { game: data, pending: pendingOf(entries) });
  }

  // Conflicts hold the entries after them (outbox.js): only the waiting ones before any.
  function pendingOf(entries) {
    var out = [];
    for (var i = 0; i < entries.length && entries[i].state === "waiting"; i++) {
      var e = entries[i];
      out.push({ action: e.action, entry: e.entry || null, n: e.n || null, entry_id: e.entry_id });
    }
    return out;
  }

  // What can be told of the game without the engine: the server's log, then the entries
  // waiting (a deal, a redeal, an undo taking back the last one): how many deals it holds,
  // and its last entry ({kind, n, contracts, entry_id?}). The rest waits "not checked yet".
  function rough(data, entries) {
    var log = (data.log || []).map(function (e) {
      return e.kind ? { kind: e.kind } : { kind: "deal", contracts: e.contracts };
    });
    pendingOf(entries).forEach(function (e) {
      if (e.action === "record") log.push({ kind: "deal", contracts: e.entry.contracts, entry_id: e.entry_id });
      else if (e.action === "redeal") log.push({ kind: e.entry.kind === "misdeal" ? "misdeal" : "redeal", entry_id: e.entry_id });
      else if (e.action === "undo") log.pop();
    });
    var deals = 0;
    log.forEach(function (e) { if (e.kind === "deal") e.n = ++deals; });
    return { deals: deals, last: log.length ? log[log.length - 1] : null };
  }

  // The game as last seen from the server: fresh when online, the copy kept when not.
  function gameData(url) {
    return fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error("offline.json " + response.status);
      return response.json();
    });
  }

  function controlled() {
    if (navigator.serviceWorker.controller) return Promise.resolve();
    return new Promise(function (resolve) {
      navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
    });
  }

  // Under Save-Data (or a connection the browser says is metered) the engine is fetched at
  // its first need only. A phone on its mobile network is not thereby saving: it is where a
  // table plays, and where the network drops, so it gets the engine once, in the background.
  function saving() {
    var c = navigator.connection;
    return !!(c && (c.saveData || c.metered === true));
  }

  // The engine's files, fetched once per phone (and per engine version) in the background;
  // the service worker keeps them for every game.
  function fetchEngine(config) {
    if (!config.ready || localStorage.getItem("sk-engine") === config.archive) return Promise.resolve();
    return Promise.all((config.files || []).map(function (file) {
      return fetch(file, { credentials: "same-origin" }).then(function (r) {
        if (!r.ok) throw new Error(file + " " + r.status);
      });
    })).then(function () { localStorage.setItem("sk-engine", config.archive); });
  }

  // Keep a game for offline play, with no tap: its page, its deal forms and its data; the
  // engine once per phone. Rejects "no-browser" where no service worker can keep it.
  function keepOffline(gameId, url) {
    if (!("serviceWorker" in navigator) || !window.isSecureContext) return Promise.reject(new Error("no-browser"));
    return register().then(function () { return navigator.serviceWorker.ready; })
      .then(controlled)
      .then(function () { return gameData(url); })
      .then(function (data) {
        var pages = [data.urls.game].concat(data.urls.forms).map(function (page) {
          return fetch(page, { credentials: "same-origin" });
        });
        return Promise.all(pages).then(function () { return Outbox.keep(gameId); })
          .then(function () {
            if (!data.engine.ready) throw new Error("no-engine");
            if (!saving()) return fetchEngine(data.engine);
          });
      });
  }

  // --- a form sent while the network may fail --------------------------------------------

  var SEND_MS = 5000;  // no answer by then: the network is as good as down, the entry is queued

  // POST a page form named by ``entryId`` (the server writes it once under that id):
  // "written" (the server redirected: saved), "network" (no answer in SEND_MS, or a 5xx:
  // the caller queues the same entry under the same id), or "answered" (a refusal page: the caller posts
  // the form as usual to show it; nothing was written).
  function send(form, submitter, entryId) {
    var body = new URLSearchParams(new FormData(form));
    if (submitter && submitter.name) body.append(submitter.name, submitter.value);
    body.set("entry_id", entryId);
    var controller = typeof AbortController === "function" ? new AbortController() : null;
    var timer = controller ? setTimeout(function () { controller.abort(); }, SEND_MS) : null;
    return fetch(form.action, {
      method: "POST", body: body, credentials: "same-origin", redirect: "manual",
      cache: "no-store", signal: controller ? controller.signal : undefined
    }).then(function (response) {
      if (response.type === "opaqueredirect") return "written";
      return response.status >= 500 ? "network" : "answered";  // a server down is no refusal
    }, function () { return "network"; }).then(function (outcome) {
      clearTimeout(timer);
      return outcome;
    });
  }

  // The form posted as usual, without this script in the way (its refusal page shown).
  function postAsUsual(form, submitter) {
    form.setAttribute("data-offline-checked", "");
    if (form.requestSubmit) form.requestSubmit(submitter || undefined); else form.submit();
  }

  // --- saved offline: a line on the next page ---------------------------------------------

  function flashSaved() {
    var text = sessionStorage.getItem("sk-saved");
    if (!text) return;
    sessionStorage.removeItem("sk-saved");
    var main = document.getElementById("main");
    var line = el("p", "flash flash-success", text);
    line.setAttribute("role", "status");
    line.setAttribute("data-testid", "offline-saved");
    main.insertBefore(line, main.firstChild);
  }

  window.SKOffline = {
    engine: Engine, startEngine: startEngine, check: check, checkSave: checkSave, screen: screen, gameData: gameData,
    syncNow: syncNow, keepOffline: keepOffline, fill: fill, score: score, number: number, el: el, json: json,
    pendingOf: pendingOf, rough: rough, refreshCount: refreshCount, askBackgroundSync: askBackgroundSync,
    flashSaved: flashSaved, send: send, postAsUsual: postAsUsual
  };

  register();
  refreshCount().then(syncNow);
  // Installed: the engine is fetched at once, for the first time the network drops.
  function engineOnInstall() {
    fetch(status.getAttribute("data-scope") + "offline/engine.json")
      .then(function (response) { return response.json(); })
      .then(fetchEngine).catch(function () {});
  }
  if (boot.installed) engineOnInstall();
  window.addEventListener("appinstalled", engineOnInstall);
})();
