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
  // A game's page or form, "the same deal?": the rest loads once the page is idle (game.js keeps the game, or
  // says once that this browser cannot); offline or with entries waiting, at once.
  var game = document.querySelector("[data-offline-script]");
  boot.capable = !!(sw && window.isSecureContext);
  if (!navigator.onLine || localStorage.getItem("sk-outbox") > 0) boot.load();
  else if (game) addEventListener("load", function () {
    (window.requestIdleCallback || setTimeout)(function () { boot.load(); }, { timeout: 5000 });
  });
  if (sw) sw.register(box.getAttribute("data-sw-url"), { scope: box.getAttribute("data-scope") }).then(function (r) {
    // An update (not the first install) is offered by offline.js.
    if (sw.controller && (r.waiting || r.installing)) boot.load();
    r.addEventListener("updatefound", function () { if (sw.controller) boot.load(); });
  }, function () {});
  if (sw) sw.ready.then(function (r) { if (!sw.controller && r.active) r.active.postMessage({ type: "claim" }); });
})();
