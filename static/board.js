// scorekeeper: the standings board. Polls the board's content every 3 s
// (If-None-Match: an unchanged event costs a bodiless 304) and replaces it
// when a deal is recorded at any table; rotates between the standings and the
// tables in progress. No controls; every text comes from the page.
"use strict";

(function () {
  var INTERVAL = 3000;
  var MAX_DELAY = 30000;

  function Board(box) {
    this.box = box;
    this.url = box.getAttribute("data-board-url");
    this.version = box.getAttribute("data-version");
    this.content = box.querySelector("[data-board-content]");
    this.offline = box.querySelector("[data-board-offline]");
    this.rotate = 1000 * Number(box.getAttribute("data-rotate-seconds") || 12);
    this.shown = "standings";
    this.failures = 0;
  }

  Board.prototype.show = function () {
    var shown = this.shown;
    Array.prototype.forEach.call(this.content.querySelectorAll("[data-board-panel]"), function (panel) {
      panel.hidden = panel.getAttribute("data-board-panel") !== shown;
    });
  };

  Board.prototype.flip = function () {
    this.shown = this.shown === "standings" ? "tables" : "standings";
    this.show();
  };

  Board.prototype.poll = function () {
    var self = this;
    fetch(this.url, { headers: { "If-None-Match": '"' + this.version + '"' }, cache: "no-store" })
      .then(function (response) {
        if (response.status === 304) return null;
        if (!response.ok) throw new Error("HTTP " + response.status);
        var tag = (response.headers.get("ETag") || "").replace(/^W\//, "").replace(/"/g, "");
        return response.text().then(function (html) { return { html: html, version: tag }; });
      })
      .then(function (fresh) {
        self.failures = 0;
        self.offline.hidden = true;
        if (fresh) {
          self.content.innerHTML = fresh.html;
          self.version = fresh.version;
          self.box.setAttribute("data-version", fresh.version);
          self.show();
        }
      })
      .catch(function () {
        self.failures += 1;
        self.offline.hidden = false;
      })
      .then(function () {
        var delay = self.failures ? Math.min(MAX_DELAY, INTERVAL * Math.pow(2, self.failures)) : INTERVAL;
        setTimeout(function () { self.poll(); }, delay);
      });
  };

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.querySelector("[data-board-url]");
    if (!box) return;
    var board = new Board(box);
    board.show();
    setInterval(function () { board.flip(); }, board.rotate);
    setTimeout(function () { board.poll(); }, INTERVAL);
  });
})();
