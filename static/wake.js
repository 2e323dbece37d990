// scorekeeper: the screen stays on while a game or a dispute is open at the table (the
// Screen Wake Lock API). Asked again each time the page comes back (hiding drops the
// lock); a browser without it, or a refusal, leaves the screen as it is.
"use strict";

(function () {
  function keepAwake() {
    if (!navigator.wakeLock || typeof navigator.wakeLock.request !== "function") return;
    function ask() {
      if (document.visibilityState !== "visible") return;
      navigator.wakeLock.request("screen").catch(function () {});
    }
    document.addEventListener("visibilitychange", ask);
    ask();
  }

  document.addEventListener("DOMContentLoaded", keepAwake);
})();
