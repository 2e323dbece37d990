// scorekeeper: "the same deal?" (templates/deals/same_deal.html) on a phone that knows its
// own entries. The server names who recorded the deal by its source ("another phone");
// when the entry that holds the position is one this phone wrote (an id of its outbox, or
// one it remembers writing: SKOutbox.mine), it says so, never "another phone".
"use strict";

(function () {
  var Outbox = window.SKOutbox;
  var section = document.querySelector("[data-offline-same]");
  var theirs = document.querySelector('[data-testid="entry-theirs"][data-entry-id]');
  if (!Outbox || !section || !theirs) return;
  var id = theirs.getAttribute("data-entry-id");
  var game = section.getAttribute("data-offline-same");
  if (!id) return;
  Promise.all([Outbox.mine(game), Outbox.list(game)]).then(function (found) {
    var own = !!found[0][id] || found[1].some(function (e) { return e.entry_id === id; });
    if (!own) return;
    theirs.querySelector('[data-testid="recorded-by"]').textContent = theirs.getAttribute("data-text-this-phone");
    theirs.setAttribute("data-recorded-by", "this-phone");
  }).catch(function () {});
})();
