// scorekeeper: offline play on the game page (templates/offline/_game.html).
// - "Keep this game available offline": its pages and the rules engine.
// - Entries waiting to sync: the scoreboard, the heading and the contract
//   buttons as the engine on the phone computes them, and the list of entries
//   "waiting to sync".
// - Undo and redeal without a network: an undo takes back the phone's own last
//   entry, or queues an undo of one already on the server; a redeal is checked
//   by the engine on the phone and queued. Online (nothing waiting), both are
//   sent by script under an entry id, and queued under it if no answer comes.
// - A conflict (an entry the server refused once back online): what this phone
//   entered beside what the other phone recorded; keep (send again), change
//   (back to its form, filled in) or discard.
"use strict";

(function () {
  var panel = document.querySelector("[data-offline-game]");
  var O = window.SKOffline;
  var Outbox = window.SKOutbox;
  if (!panel || !O || !Outbox) return;
  var gameId = panel.getAttribute("data-offline-game");
  var url = panel.getAttribute("data-offline-url");
  var names = [];
  var texts = { contracts: {} };
  var line = panel.querySelector("[data-offline-line]");
  var keepButton = panel.querySelector("[data-keep-offline]");

  function text(name) { return texts[name] || ""; }
  function say(name) { if (text(name)) line.textContent = text(name); }
  function contractsText(list) { return list.map(function (c) { return texts.contracts[c] || c; }).join(" + "); }

  // The phone's copy of the game, with the panel's words (fresh online, kept offline).
  function gameData() {
    return O.gameData(url).then(function (data) {
      texts = data.texts || texts;
      names = data.players;
      return data;
    });
  }
  function all(selector) { return Array.prototype.slice.call(document.querySelectorAll(selector)); }

  function scoresLine(scores) {
    return names.map(function (name, seat) { return name + " " + O.score(scores[seat]); }).join(" · ");
  }

  function describe(entry, deal) {
    if (entry.action === "undo") return text("undo");
    if (entry.action === "edit") return O.fill(text("correction"), { n: entry.n });
    if (entry.action === "redeal") return text("redeal");
    var n = deal ? deal.n : entry.preview ? entry.preview.n : "";
    return O.fill(text("deal"), { n: n, contracts: contractsText(entry.entry.contracts) });
  }

  // Every deal of a game state, in order (kingdoms, then extra deals).
  function dealsOf(state) {
    var deals = [];
    state.kingdoms.forEach(function (k) { deals = deals.concat(k.deals); });
    return deals.concat(state.extra_deals || []);
  }

  // --- the board as the phone computes it -------------------------------------------------

  // A club night's table whose first deal, saved on this phone, named the first king (R2):
  // the page, worded before it, still says the deal form will ask who it is.
  function namedKing(state) {
    var first = document.querySelector('[data-testid="turn"] p');
    if (!first || !text("kingdom-king")) return;
    var parts = O.fill(text("kingdom-king"), { number: state.kingdoms.length }).split("%(king)s");
    first.textContent = parts[0];
    first.appendChild(O.el("strong", "", names[state.current_king]));
    first.appendChild(document.createTextNode(parts.slice(1).join("")));
  }

  function showBoard(state, firstKingOpen) {
    state.totals.forEach(function (total, seat) {
      var cell = document.querySelector('[data-testid="total-' + seat + '"] .total-score');
      if (cell) cell.textContent = O.score(total);
    });
    (state.team_totals || []).forEach(function (total, team) {
      var cell = document.querySelector('[data-testid="team-' + team + '"] .total-score');
      if (cell) cell.textContent = O.score(total);
    });
    var heading = document.querySelector('[data-testid="game-status"]');
    if (heading) {
      heading.textContent = state.finished ? text("game-over") : O.fill(text("deal-of"), {
        n: state.deals_played + 1, total: state.deals_total
      });
    }
    var king = document.querySelector('[data-testid="turn"] strong');
    if (king && state.current_king !== null) king.textContent = names[state.current_king];
    else if (!king && state.current_king !== null && !firstKingOpen) namedKing(state);
    all('[data-testid="leader"], [data-testid="dealer-line"], [data-testid="turn"] .hint').forEach(function (node) {
      node.hidden = true;  // worded by the server for the game it last saw
    });
    var choices = (state.available_choices || []).map(function (c) { return c.join("-"); });
    all('[data-testid="choose-contract"] a.contract-button').forEach(function (button) {
      var key = (button.getAttribute("data-testid") || "").replace(/^contract-/, "");
      button.hidden = choices.indexOf(key) < 0;
    });
    var choose = document.querySelector('[data-testid="choose-contract"]');
    if (choose) choose.hidden = state.finished;
  }

  function showPending(entries, data, state) {
    var list = panel.querySelector("[data-pending-list]");
    list.textContent = "";
    var phoneDeals = state ? dealsOf(state).slice(data.state.deals_played) : [];
    var next = 0;
    entries.filter(function (e) { return e.state === "waiting"; }).forEach(function (entry) {
      var deal = entry.action === "record" ? phoneDeals[next++] : null;
      var item = O.el("li", "pending", describe(entry, deal));
      item.setAttribute("data-testid", "pending-entry");
      item.appendChild(O.el("span", "pending-mark", " · " + text("waiting")));
      if (deal) item.appendChild(O.el("span", "pending-scores", scoresLine(deal.scores)));
      list.appendChild(item);
    });
    panel.querySelector("[data-pending]").hidden = !list.children.length;
  }

  // --- conflicts --------------------------------------------------------------------------

  // One entry beside what the other phone recorded, and the player's three choices.
  function conflictBox() {
    var node = O.el("div", "conflict");
    node.setAttribute("data-testid", "conflict");
    node.appendChild(O.el("h3", "", text("conflict")));
    node.appendChild(O.el("p", "conflict-why")).setAttribute("data-conflict-why", "");
    var sides = node.appendChild(O.el("div", "side-by-side"));
    ["mine", "theirs"].forEach(function (side) {
      var box = sides.appendChild(O.el("div", "side"));
      box.appendChild(O.el("h4", "", text(side)));
      box.appendChild(O.el("div")).setAttribute("data-conflict-" + side, "");
    });
    var actions = node.appendChild(O.el("div", "actions"));
    ["keep", "change", "discard"].forEach(function (choice) {
      var button = actions.appendChild(O.el("button", choice === "discard" ? "button button-danger" : "button", text(choice)));
      button.type = "button";
      button.setAttribute("data-choice", choice);
      button.setAttribute("data-testid", "conflict-" + choice);
    });
    return node;
  }

  function showConflicts(entries) {
    var box = panel.querySelector("[data-conflicts]");
    box.textContent = "";
    entries.filter(function (e) { return e.state === "conflict"; }).slice(0, 1).forEach(function (entry) {
      var node = conflictBox();
      var refusal = entry.refusal || {};
      node.querySelector("[data-conflict-why]").textContent =
        (refusal.errors || []).map(function (e) { return e.message; }).join(" ");
      var mine = node.querySelector("[data-conflict-mine]");
      mine.appendChild(O.el("p", "", describe(entry, null)));
      if (entry.preview && entry.preview.scores) mine.appendChild(O.el("p", "muted", scoresLine(entry.preview.scores)));
      var theirs = node.querySelector("[data-conflict-theirs]");
      var recorded = refusal.game ? dealsOf(refusal.game).slice(entry.base_deals || 0) : [];
      if (!recorded.length) theirs.appendChild(O.el("p", "", text("theirs-none")));
      recorded.forEach(function (deal) {
        theirs.appendChild(O.el("p", "", O.fill(text("deal"), { n: deal.n, contracts: contractsText(deal.contracts) })));
        theirs.appendChild(O.el("p", "muted", scoresLine(deal.scores)));
      });
      Array.prototype.forEach.call(node.querySelectorAll("[data-choice]"), function (button) {
        button.addEventListener("click", function () { decide(entry, button.getAttribute("data-choice")); });
      });
      box.appendChild(node);
    });
  }

  function decide(entry, choice) {
    var done;
    if (choice === "keep") {
      entry.state = "waiting";
      delete entry.refusal;
      done = Outbox.put(entry);
    } else if (choice === "discard") {
      done = Outbox.remove(entry.entry_id, gameId);
    } else {
      sessionStorage.setItem("sk-draft-" + gameId, JSON.stringify(entry));
      done = Outbox.remove(entry.entry_id, gameId).then(function () {
        var key = "contract-" + entry.entry.contracts.join("-");
        var link = all('[data-testid="choose-contract"] a.contract-button').filter(function (a) {
          return a.getAttribute("data-testid") === key;
        })[0];
        if (link) window.location.assign(link.href);  // its form, filled in again (form.js)
      });
    }
    return done.then(function () { return O.syncNow(); }).then(render);
  }

  // --- undo and redeal: sent by script online, queued offline ------------------------------

  var WRITES = { "undo-form": "undo", "redeal-form": "redeal" };

  function formValue(form, name) {
    var field = form.elements[name];
    return field ? String(field.value || "") : "";
  }

  // The redeal form as the API's redeal (API.md), as the server's form makes it.
  function redealEntry(form) {
    var kind = formValue(form, "kind") || "redeal";
    var seat = formValue(form, "seat");
    var entry = {
      kind: kind === "misdeal" ? "misdeal" : "redeal", seat: seat === "" ? null : Number(seat),
      contract: formValue(form, "contract") || null, note: formValue(form, "note").trim()
    };
    if (kind === "closed_suit") { entry.contract = "trix"; entry.reason = "closed_suit"; }
    return entry;
  }

  function formErrors(form, messages) {
    Array.prototype.forEach.call(form.querySelectorAll("[data-offline-error]"), function (node) { node.remove(); });
    if (!messages.length) return;
    var list = O.el("ul", "errors");
    list.setAttribute("role", "alert");
    list.setAttribute("data-offline-error", "");
    list.setAttribute("data-testid", "offline-form-errors");
    messages.forEach(function (message) { list.appendChild(O.el("li", "", message)); });
    form.insertBefore(list, form.firstChild);
  }

  // An undo or a redeal kept on this phone. ``sentAs``: the id it was sent under when the
  // network failed (the same entry, under the same id, at the version its form showed).
  function queue(form, action, sentAs) {
    return Promise.all([gameData(), Outbox.list(gameId)]).then(function (found) {
      var data = found[0];
      var waiting = found[1].filter(function (e) { return e.state === "waiting"; });
      if (!data.editable) { say("view-only"); return null; }
      var last = waiting[waiting.length - 1];
      if (action === "undo" && last && (last.action === "record" || last.action === "redeal")) {
        return Outbox.remove(last.entry_id, gameId);  // the phone's own last entry, taken back
      }
      var entry = {
        game: gameId, action: action, after: waiting.length,
        base_version: data.version, base_deals: data.state.deals_played,
        urls: { offline: url, game: window.location.pathname }
      };
      if (sentAs) entry.entry_id = sentAs;
      if (action === "undo") {
        entry.version = sentAs ? Number(formValue(form, "version")) || data.version : data.version;
        return Outbox.add(entry).then(O.askBackgroundSync);
      }
      entry.entry = redealEntry(form);
      return O.check(data, O.pendingOf(waiting), { action: "redeal", entry: entry.entry }).then(function (answer) {
        if (!answer.ok) { formErrors(form, answer.errors.map(function (e) { return e.message; })); return null; }
        formErrors(form, []);
        form.reset();
        var details = form.closest("details");
        if (details) details.open = false;
        return Outbox.add(entry).then(O.askBackgroundSync);
      });
    }).then(function () {
      O.refreshCount();  // this page's own changes do not come back on its channel
      return render();
    }, function () { say("no-engine"); });
  }

  // Online with nothing waiting: sent under an entry id (no answer: queued under it). One
  // that could not be queued keeps its id for the next tap, so a retry is written once.
  var unanswered = {};
  function sendOrQueue(form, action, submitter) {
    return Outbox.list(gameId).then(function (entries) {
      if (!navigator.onLine || entries.length) return queue(form, action, null);
      var sentAs = unanswered[action] || Outbox.newId();
      return O.send(form, submitter, sentAs).then(function (outcome) {
        unanswered[action] = outcome === "network" ? sentAs : null;
        if (outcome === "written") window.location.assign(window.location.pathname);
        else if (outcome === "network") return queue(form, action, sentAs).then(function () {
          return Outbox.list(gameId);
        }).then(function (waiting) {  // queued: the outbox sends it, under its id
          if (waiting.some(function (e) { return e.entry_id === sentAs; })) unanswered[action] = null;
        });
        else O.postAsUsual(form, submitter);  // refused: the server's page says why
      });
    });
  }

  var busy = false;  // one write at a time: a second tap must not make a second entry
  // Delegated: the live updates replace these forms (static/live.js).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var action = WRITES[form.getAttribute("data-testid")];
    if (!action || form.hasAttribute("data-offline-checked")) return;
    event.preventDefault();
    if (busy) return;
    busy = true;
    function done() { busy = false; }
    sendOrQueue(form, action, event.submitter).then(done, done);
  });

  // --- the page ---------------------------------------------------------------------------

  function render() {
    return Promise.all([gameData(), Outbox.list(gameId)]).then(function (found) {
      var data = found[0];
      var entries = found[1];
      var waiting = entries.filter(function (e) { return e.state === "waiting"; });
      panel.toggleAttribute("data-has-pending", entries.length > 0);
      if (!navigator.onLine) say(data.editable ? "offline" : "view-only");
      showConflicts(entries);
      if (!waiting.length) { showPending([], data, null); return null; }
      return O.check(data, O.pendingOf(waiting), null).then(function (answer) {
        if (!answer.ok) return;
        showBoard(answer.state, answer.first_king_open);
        showPending(entries, data, answer.state);
      });
    }).catch(function () {});
  }

  keepButton.addEventListener("click", function () {
    keepButton.disabled = true;
    say("getting");
    gameData().catch(function () {}).then(function () { return O.keepOffline(gameId, url); }).then(function () {
      say("ready");
      panel.setAttribute("data-kept", "");
    }, function (error) {
      var reason = error && error.message;
      say(reason === "no-engine" ? "no-engine" : reason === "no-browser" ? "no-browser" : "failed");
      keepButton.disabled = false;
    });
  });

  // A sync finished, this page's or the service worker's (Background Sync): once this
  // game's entries are all on the server, the server's page is shown, once.
  var reloading = false;
  function typing() {  // a field being typed in (a tapped button or box is not)
    var field = document.activeElement;
    return !!(field && field.form && /^(INPUT|TEXTAREA|SELECT)$/.test(field.tagName) &&
      !/^(checkbox|radio|submit|button|hidden)$/.test(field.type));
  }
  function afterSync(report) {
    render().then(function () {
      if (!((report || {}).games || {})[gameId]) return;
      return Outbox.list(gameId).then(function (left) {
        if (left.length) return;
        say("synced");
        // The server's page now holds what was entered offline: show it (unless typing).
        if (!typing() && !reloading) {
          reloading = true;
          window.location.reload();
        }
      });
    });
  }
  document.addEventListener("sk-synced", function (event) { afterSync(event.detail); });
  if (Outbox.channel) Outbox.channel.addEventListener("message", function (event) {
    if (event.data && event.data.type === "changed" && event.data.game === gameId) render();
    if (event.data && event.data.type === "synced") afterSync(event.data.report);
  });
  window.addEventListener("offline", render);

  Outbox.kept().then(function (kept) {
    if (kept.some(function (k) { return k.game === gameId; })) {
      panel.setAttribute("data-kept", "");
      gameData().then(function () { say("ready"); }, function () {});  // the copy kept, refreshed
    }
  }).catch(function () {});
  O.flashSaved();
  render();
  if (window.SKBoot && window.SKBoot.keep) {  // tapped while this script was loading
    window.SKBoot.keep = false;
    keepButton.click();
  }
})();
