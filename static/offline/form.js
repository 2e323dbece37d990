// scorekeeper: a deal form saved without a network (templates/offline/_form.html).
// Online, and with nothing waiting to sync, the form posts as usual. Otherwise
// the deal goes to the engine on the phone (the game's stored log, then the
// entries waiting, then this one): refused, its problems are shown beside
// their fields in the engine's words; accepted, it joins the outbox.
"use strict";

(function () {
  var box = document.querySelector("[data-offline-form]");
  var O = window.SKOffline;
  var Outbox = window.SKOutbox;
  if (!box || !O || !Outbox) return;
  var form = document.querySelector("form.deal-form");
  var gameId = box.getAttribute("data-offline-form");
  var contracts = box.getAttribute("data-contracts").split(",");
  var n = Number(box.getAttribute("data-n")) || null;
  var QUEENS = ["s", "h", "d", "c"];

  function has(name) { return !!form.querySelector('[name="' + name + '"]'); }

  // The form's fields as the API's deal (API.md "Deal captures").
  function formEntry() {
    var data = new FormData(form);
    function seat(name) {
      var value = data.get(name);
      return value === null || value === "" ? null : Number(value);
    }
    var captures = {};
    if (has("kh_taker")) captures.king_of_hearts = { taker: seat("kh_taker"), doubled_by: seat("kh_doubled_by") };
    if (has("qs_taker")) {
      captures.queens = {};
      QUEENS.forEach(function (q) {
        captures.queens["Q" + q.toUpperCase()] = { taker: seat("q" + q + "_taker"), doubled_by: seat("q" + q + "_doubled_by") };
      });
    }
    ["diamonds", "tricks"].forEach(function (name) {
      if (!has(name + "-0")) return;
      captures[name] = [0, 1, 2, 3].map(function (i) {
        var text = String(data.get(name + "-" + i) || "").trim();
        return text === "" ? 0 : Number(text);
      });
    });
    if (has("trix-0")) captures.trix_order = [0, 1, 2, 3].map(function (i) { return seat("trix-" + i); });
    var entry = { contracts: contracts, captures: captures };
    if (has("king")) entry.king = seat("king");
    return entry;
  }

  // ``captures.queens.QH.doubled_by`` -> the group of ``qh_doubled_by`` (as the server's form).
  function groupOf(field) {
    var parts = String(field || "").split(".");
    var name = "";
    if (parts[0] === "king") name = "king";
    else if (parts[0] === "captures" && parts[1] === "king_of_hearts") name = parts[2] === "doubled_by" && has("kh_doubled_by") ? "kh_doubled_by" : "kh_taker";
    else if (parts[0] === "captures" && parts[1] === "queens" && parts[2]) {
      var q = parts[2].toLowerCase();
      name = parts[3] === "doubled_by" && has(q + "_doubled_by") ? q + "_doubled_by" : q + "_taker";
    } else if (parts[0] === "captures" && parts[1]) name = parts[1] === "trix_order" ? "trix" : parts[1];
    return name ? document.getElementById(name + "-group") : null;
  }

  function clearErrors() {
    Array.prototype.forEach.call(form.querySelectorAll("[data-offline-error]"), function (node) { node.remove(); });
    box.querySelector("[data-offline-errors]").textContent = "";
  }

  function showErrors(errors) {
    clearErrors();
    var list = box.querySelector("[data-offline-errors]");
    errors.forEach(function (error) {
      list.appendChild(O.el("li", "", error.message));
      var group = groupOf(error.field);
      if (group) {
        var line = O.el("p", "error", error.message);
        line.setAttribute("data-offline-error", "");
        group.insertBefore(line, group.children[1] || null);
      }
    });
    box.hidden = false;
    box.scrollIntoView({ block: "start" });
  }

  function say(text) {
    showErrors([{ message: text, field: null }]);
  }

  // Offline, what the server rendered about the game may be out of date: say nothing stale.
  function hideStale() {
    Array.prototype.forEach.call(document.querySelectorAll('[data-testid="error-summary"], [data-testid="dealer-line"]'), function (node) {
      node.hidden = true;
    });
  }

  function title(data, answer) {
    var heading = document.querySelector('[data-testid="deal-title"]');
    var save = document.querySelector('[data-testid="save-deal"]');
    if (n || !answer.ok) return;
    var next = answer.state.deals_played + 1;
    if (heading) heading.textContent = O.fill(box.getAttribute("data-text-deal"), { n: next, contracts: box.getAttribute("data-contracts-text") });
    if (save) save.textContent = O.fill(box.getAttribute("data-text-save"), { n: next });
  }

  function entryOf(data, waiting) {
    var entry = {
      game: gameId, action: n ? "edit" : "record", entry: formEntry(),
      base_version: data.version, base_deals: data.state.deals_played,
      after: waiting.length,
      urls: { offline: box.getAttribute("data-offline-url"), game: box.getAttribute("data-game-url") }
    };
    if (n) { entry.n = n; entry.version = data.version; }
    return entry;
  }

  function saveOffline() {
    clearErrors();
    var url = box.getAttribute("data-offline-url");
    var data, waiting;
    return Promise.all([O.gameData(url), Outbox.list(gameId)]).then(function (found) {
      data = found[0];
      waiting = found[1].filter(function (e) { return e.state === "waiting"; });
      if (!data.editable) throw new Error("read-only");
      var entry = entryOf(data, waiting);
      return O.check(data, O.pendingOf(waiting), { action: entry.action, entry: entry.entry, n: entry.n }).then(function (answer) {
        if (!answer.ok) { showErrors(answer.errors); return null; }
        entry.preview = answer.deal || null;
        return Outbox.add(entry).then(function () {
          sessionStorage.setItem("sk-saved", box.getAttribute("data-text-saved"));
          O.askBackgroundSync();
          window.location.assign(box.getAttribute("data-game-url"));
        });
      });
    }).catch(function (error) {
      say(box.getAttribute(error && error.message === "read-only" ? "data-text-view-only" : "data-text-no-engine"));
    });
  }

  function queued() {
    return Outbox.list(gameId).then(function (entries) { return entries.length > 0; }, function () { return false; });
  }

  form.addEventListener("submit", function (event) {
    if (form.hasAttribute("data-offline-checked")) return;  // online, nothing waiting: post it
    event.preventDefault();
    var submitter = event.submitter;
    queued().then(function (waiting) {
      if (navigator.onLine && !waiting) {
        form.setAttribute("data-offline-checked", "");
        if (form.requestSubmit) form.requestSubmit(submitter || undefined); else form.submit();
        return;
      }
      saveOffline();
    });
  });

  // A conflict the player chose to change: its captures back in the form.
  function prefill() {
    var draft = O.json(sessionStorage.getItem("sk-draft-" + gameId));
    if (!draft || draft.entry.contracts.join(",") !== contracts.join(",")) return;
    sessionStorage.removeItem("sk-draft-" + gameId);
    var caps = draft.entry.captures;
    function pick(name, value) {
      var input = form.querySelector('[name="' + name + '"][value="' + (value === null ? "" : value) + '"]');
      if (input) input.checked = true;
    }
    if (caps.king_of_hearts) { pick("kh_taker", caps.king_of_hearts.taker); pick("kh_doubled_by", caps.king_of_hearts.doubled_by); }
    if (caps.queens) QUEENS.forEach(function (q) {
      var cap = caps.queens["Q" + q.toUpperCase()];
      if (cap) { pick("q" + q + "_taker", cap.taker); pick("q" + q + "_doubled_by", cap.doubled_by); }
    });
    ["diamonds", "tricks"].forEach(function (name) {
      (caps[name] || []).forEach(function (value, i) {
        var input = form.querySelector('[name="' + name + "-" + i + '"]');
        if (input) input.value = value;
      });
    });
    (caps.trix_order || []).forEach(function (seat, i) {
      var select = form.querySelector('[name="trix-' + i + '"]');
      if (select) select.value = String(seat);
    });
  }

  prefill();
  if (!navigator.onLine) {
    hideStale();
    Promise.all([O.gameData(box.getAttribute("data-offline-url")), Outbox.list(gameId)]).then(function (found) {
      var waiting = found[1].filter(function (e) { return e.state === "waiting"; });
      return O.check(found[0], O.pendingOf(waiting), null).then(function (answer) { title(found[0], answer); });
    }).catch(function () {});
  }
})();
