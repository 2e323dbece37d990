// scorekeeper: a claim being judged. Without JavaScript the page refreshes
// itself every 2 s (a meta refresh inside <noscript>); with this script, the page asks for the
// claim's state twice a second, moves its progress bar and words, and reloads
// once the answer is ready. Each request also tells the server that the page
// is still open: a claim nobody follows any more is stopped.
"use strict";

(function () {
  var INTERVAL = 500;
  var MAX_DELAY = 5000;

  function follow(box) {
    var url = box.getAttribute("data-status-url");
    var text = box.querySelector("[data-progress-text]");
    var bar = box.querySelector("[data-progress-bar]");
    var delay = INTERVAL;

    function show(status) {
      if (text && status.message) text.textContent = status.message;
      if (bar && status.state === "running") {
        bar.max = status.limit;
        bar.value = Math.min(status.elapsed, status.limit);
      }
    }

    function ask() {
      fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" })
        .then(function (response) {
          if (response.status === 404) window.location.reload();  // no longer kept: say so
          if (!response.ok) throw new Error(String(response.status));
          return response.json();
        })
        .then(function (status) {
          delay = INTERVAL;
          show(status);
          if (status.finished) {
            window.location.reload();
          } else {
            window.setTimeout(ask, delay);
          }
        })
        .catch(function () {
          // Offline or the server busy: try again more slowly; a reload shows any answer.
          delay = Math.min(delay * 2, MAX_DELAY);
          window.setTimeout(ask, delay);
        });
    }

    window.setTimeout(ask, INTERVAL);
  }

  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("[data-claim-progress]"), follow);
  });
})();
