// scorekeeper: registers the service worker; loads the offline scripts only when
// they have work (offline, entries waiting, an update, a game page once idle, install).
"use strict";
(function () {
  var box = document.querySelector("[data-offline-status]");
  if (!box) return;
  var base = box.getAttribute("data-assets"), sw = navigator.serviceWorker, loading = null;
  var boot = window.SKBoot = { dirty: false };
  function script(name) {
    return new Promise(function (ok, fail) {
      var tag = document.createElement("script");
      tag.src = base + name;
      tag.onload = ok;
      tag.onerror = fail;
      document.head.appendChild(tag);
    });
  }
  boot.load = function () {
    if (loading) return loading;
    var css = document.createElement("link"), page = document.querySelector("[data-offline-script]");
    css.rel = "stylesheet";
    css.href = base + "offline.css";
    document.head.appendChild(css);
    loading = ["outbox.js", "offline.js"].concat(page ? [page.getAttribute("data-offline-script")] : [])
      .reduce(function (done, name) { return done.then(function () { return script(name); }); }, Promise.resolve());
    return loading;
  };
  document.addEventListener("input", function (e) {
    if (e.target.form && e.target.form.method === "post") boot.dirty = true;
  });
  addEventListener("offline", boot.load);
  addEventListener("appinstalled", function () { boot.installed = true; boot.load(); });
  // A game kept offline: its page and its deal forms send their writes by script. Every
  // game is kept with no tap: its page loads the rest once the page is idle (nothing more
  // is fetched before), where the browser can keep games at all (a secure context).
  var game = document.querySelector("[data-offline-game], [data-offline-form]");
  var gameId = game && (game.getAttribute("data-offline-game") || game.getAttribute("data-offline-form"));
  boot.capable = !!(sw && window.isSecureContext);
  var panel = document.querySelector("[data-offline-game]");
  if (panel && !boot.capable) {  // said once, in one line: nothing offered that cannot work
    panel.querySelector("[data-offline-line]").hidden = true;
    panel.querySelector("[data-cannot-keep]").hidden = false;
  }
  if (!navigator.onLine || localStorage.getItem("sk-outbox") > 0 ||
      (gameId && (" " + localStorage.getItem("sk-kept") + " ").indexOf(" " + gameId + " ") >= 0)) boot.load();
  else if (game) {
    var idle = window.requestIdleCallback || function (fn) { return setTimeout(fn, 2000); };
    addEventListener("load", function () { idle(function () { boot.load(); }, { timeout: 5000 }); });
  }
  if (sw) sw.register(box.getAttribute("data-sw-url"), { scope: box.getAttribute("data-scope") }).then(function (r) {
    // An update (not the first install) is offered by offline.js.
    if (sw.controller && (r.waiting || r.installing)) boot.load();
    r.addEventListener("updatefound", function () { if (sw.controller) boot.load(); });
  }, function () {});
  if (sw) sw.ready.then(function (r) { if (!sw.controller && r.active) r.active.postMessage({ type: "claim" }); });
})();
