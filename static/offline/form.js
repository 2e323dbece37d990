// scorekeeper: a deal form saved without a network (templates/offline/_form.html).
// Online, and with nothing waiting to sync, the form is sent under an entry id
// (offline.js send): saved, the game page follows; refused, the form posts as
// usual to show the server's page; no answer, it is queued as below. Otherwise
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
  // Opened from the game page's Edit without the server (game.js editLatest): a deal of
  // this phone's outbox to change where it waits (replaces), or a deal to correct (edit).
  var editing = null;
  var QUEENS = ["s", "h", "d", "c"];

  function has(name) { return !!form.querySelector('[name="' + name + '"]'); }
  function field(name) { return form.querySelector('[name="' + name + '"]'); }

  // A card's holder counts only while its "×2" toggle is on (as the server's form).
  function holderOff(key) {
    var toggle = field(key + "_doubled");
    return !!toggle && !toggle.checked;
  }

  // The form's fields as the API's deal (API.md "Deal captures").
  function formEntry() {
    var data = new FormData(form);
    function seat(name) {
      var value = data.get(name);
      return value === null || value === "" ? null : Number(value);
    }
    function card(key) {
      return { taker: seat(key + "_taker"), doubled_by: holderOff(key) ? null : seat(key + "_doubled_by") };
    }
    var captures = {};
    if (has("kh_taker")) captures.king_of_hearts = card("kh");
    if (has("qs_taker")) {
      captures.queens = {};
      QUEENS.forEach(function (q) { captures.queens["Q" + q.toUpperCase()] = card("q" + q); });
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

  // A card's name as the sentences hold it: isolated in right-to-left pages.
  function cardName(row) {
    var text = row.querySelector("th.card").textContent.trim();
    return document.documentElement.dir === "rtl" ? "\u2066" + text + "\u2069" : text;
  }

  // What the server's form asks before the rules look at the deal: a card without a taker,
  // a "×2" without its holder, no 7♥ (the engine would name a field, not the card), and the
  // four Trix places, each a player once (as the sums of 13 are checked before Save). So an
  // entry saved before the engine is ready is whole; the server checks the rest at sync.
  function missing(data) {
    var errors = trixMissing(data);
    if (has("king") && !form.querySelector('[name="king"]:checked')) {
      errors.push({ message: box.getAttribute("data-text-seven"), field: "king" });
    }
    Array.prototype.forEach.call(form.querySelectorAll(".card-row"), function (row) {
      var key = row.id.replace(/_taker-group$/, "");
      var name = cardName(row);
      if (!form.querySelector('[name="' + key + '_taker"]:checked')) {
        errors.push({ message: O.fill(box.getAttribute("data-text-taker"), { card: name }), group: row });
      }
      var toggle = field(key + "_doubled");
      if (toggle && toggle.checked && !form.querySelector('[name="' + key + '_doubled_by"]:checked')) {
        errors.push({ message: O.fill(box.getAttribute("data-text-holder"), { card: name }), group: row });
      }
    });
    return errors;
  }

  function trixMissing(data) {
    if (!has("trix-0")) return [];
    var texts = data.texts || {};
    var seats = [0, 1, 2, 3].map(function (i) { return field("trix-" + i).value; });
    var group = document.getElementById("trix-group");
    var places = texts["trix-places"] || [];
    var errors = [];
    seats.forEach(function (seat, i) {
      if (seat === "") errors.push({ message: places[i] || "", group: group });
    });
    if (errors.length) return errors;
    var twice = seats.filter(function (seat, i) { return seats.indexOf(seat) !== i; });
    if (!twice.length) return [];
    var left = ["0", "1", "2", "3"].filter(function (seat) { return seats.indexOf(seat) < 0; });
    var list = function (some) {
      return some.map(function (seat) { return "\u2068" + data.players[Number(seat)] + "\u2069"; }).join(", ");
    };
    return [{ message: O.fill(texts["trix-twice"] || "", { twice: list(twice), left_out: list(left) }), group: group }];
  }

  // ``captures.queens.QH.doubled_by`` -> the card's row, ``captures.diamonds`` -> its box.
  function groupOf(error) {
    if (error.group) return error.group;
    var parts = String(error.field || "").split(".");
    var name = "";
    if (parts[0] === "king") name = "king";
    else if (parts[0] === "captures" && parts[1] === "king_of_hearts") name = "kh_taker";
    else if (parts[0] === "captures" && parts[1] === "queens" && parts[2]) name = parts[2].toLowerCase() + "_taker";
    else if (parts[0] === "captures" && parts[1]) name = parts[1] === "trix_order" ? "trix" : parts[1];
    return name ? document.getElementById(name + "-group") : null;
  }

  // An error line beside its field: in a grid's row group, a row of its own.
  function errorLine(group, message) {
    var line = O.el("p", "error", message);
    if (group.tagName !== "TBODY") {
      line.setAttribute("data-offline-error", "");
      group.insertBefore(line, group.children[1] || null);
      return;
    }
    var row = document.createElement("tr");
    var cell = document.createElement("td");
    cell.colSpan = 6;
    cell.appendChild(line);
    row.appendChild(cell);
    row.setAttribute("data-offline-error", "");
    group.insertBefore(row, group.rows[1] || null);
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
      var group = groupOf(error);
      if (group) errorLine(group, error.message);
    });
    box.hidden = false;
    box.scrollIntoView({ block: "start" });
  }

  function say(text) {
    showErrors([{ message: text, field: null }]);
  }

  // Offline, what the server rendered about the game may be out of date: say nothing stale.
  function hideStale() {
    Array.prototype.forEach.call(document.querySelectorAll('[data-testid="error-summary"], [data-testid="dealer-line"], h1 + p.hint'), function (node) {
      node.hidden = true;
    });
  }

  // The heading, the Save button and the dealer's line, from the phone's one game state.
  function title(data, answer) {
    var heading = document.querySelector('[data-testid="deal-title"]');
    var save = document.querySelector('[data-testid="save-deal"]');
    if (n || !answer.ok) return;
    var contractsText = box.getAttribute("data-contracts-text");
    var fixing = editing && (editing.edit || editing.n);
    var next = fixing || answer.screen.next_deal;
    if (heading) heading.textContent = O.fill(box.getAttribute(fixing ? "data-text-correct" : "data-text-deal"), { n: O.number(next), contracts: contractsText });
    if (save) save.textContent = O.fill(box.getAttribute("data-text-save"), { n: O.number(next) });
    if (!fixing) dealerLine(data, answer.screen);
    // The position the form is typed for follows the heading (the server refuses a form
    // for a position another phone took, API.md "One deal, one position").
    var position = form.querySelector('[name="position_n"]');
    var positionKing = form.querySelector('[name="position_king"]');
    if (!fixing && position) position.value = String(next);
    if (!fixing && positionKing) positionKing.value = answer.screen.kingdom.king == null ? "" : String(answer.screen.kingdom.king);
  }

  // No engine yet: the deal's number is the server's deals and the phone's (never the
  // stale one the page was kept with); who deals is not known yet, so it is not said.
  function roughTitle(data, waiting) {
    if (n || (editing && (editing.edit || editing.n))) return;
    var next = O.rough(data, waiting).deals + 1;
    var heading = document.querySelector('[data-testid="deal-title"]');
    var save = document.querySelector('[data-testid="save-deal"]');
    if (heading) heading.textContent = O.fill(box.getAttribute("data-text-deal"), { n: O.number(next), contracts: box.getAttribute("data-contracts-text") });
    if (save) save.textContent = O.fill(box.getAttribute("data-text-save"), { n: O.number(next) });
    var position = field("position_n");
    if (position) { position.value = String(next); field("position_king").value = ""; }
    heading.setAttribute("data-unchecked", "");
  }

  function dealerLine(data, s) {
    var king = s.kingdom.king;
    var line = document.querySelector('[data-testid="dealer-line"]') || document.querySelector("h1 + p.hint");
    if (king === null || s.over) { if (line) line.hidden = true; return; }
    if (!line) {
      line = O.el("p", "hint");
      var heading = document.querySelector('[data-testid="deal-title"]');
      heading.parentNode.insertBefore(line, heading.nextSibling);
    }
    var name = function (seat) { return data.players[seat]; };
    var trix = contracts.join() === "trix";
    line.textContent = s.dealer === null ? O.fill(box.getAttribute("data-text-king-deals"), { king: name(king) }) :
      O.fill(box.getAttribute("data-text-dealer"), { dealer: name(s.dealer), leader: name(trix ? s.trix_first : s.first_lead), king: name(king) });
    line.setAttribute("data-testid", "dealer-line");
    line.hidden = false;
  }

  // ``sentAs``: the entry id this form was sent under when the network failed (the
  // same entry, queued under the same id; a correction keeps the version it was made on).
  // A correction queued behind entries waiting takes the version they make at sync.
  function entryOf(data, waiting, sentAs) {
    var entry = {
      game: gameId, action: n || (editing && editing.edit) ? "edit" : "record", entry: formEntry(),
      base_version: data.version, base_deals: data.state.deals_played,
      after: waiting.length,
      urls: { offline: box.getAttribute("data-offline-url"), game: box.getAttribute("data-game-url") }
    };
    if (sentAs) { entry.entry_id = sentAs; entry.sent = true; }
    if (n) {
      entry.n = n;
      entry.version = sentAs ? Number(field("version").value) || data.version : data.version;
    } else if (editing && editing.edit) {
      entry.n = editing.edit;
      entry.version = data.version;
    }
    if (entry.action === "edit" && !sentAs && waiting.length) entry.follows = waiting[waiting.length - 1].entry_id;
    return entry;
  }

  // A new deal says where it was typed and when it was played, as the online form does
  // (API.md "One deal, one position", "Time played"): the position the engine on the
  // phone gave it (the projected heading), or the one the form sent under ``sentAs``, or
  // before the engine the deal's number alone (its king is not known yet).
  function stamp(entry, data, waiting, deal, sentAs) {
    if (entry.action !== "record") return entry;
    var position;
    if (sentAs && field("position_n") && field("position_n").value) {
      var king = field("position_king").value;
      position = { n: Number(field("position_n").value), king: king === "" ? null : Number(king) };
    } else if (deal) {
      // A deal that names its king (who was dealt the 7♥) was typed for no king yet.
      var named = entry.entry.king !== undefined && entry.entry.king !== null;
      position = { n: deal.n, king: named || deal.king === undefined ? null : deal.king };
    } else {
      position = { n: O.rough(data, waiting).deals + 1, king: null };
    }
    position.game = gameId;  // as the online form's position_game
    var played = window.SKPlayed ? window.SKPlayed.stamp(form) : null;
    entry.fields = { position: position };
    if (played && played.value) entry.fields.played_at = played.value;
    return entry;
  }

  // Saved on this phone: checked by the engine when it is ready; before that, the form's own
  // checks apply and the entry waits "not checked yet" (the server checks it at sync).
  function saveOffline(sentAs) {
    clearErrors();
    var url = box.getAttribute("data-offline-url");
    var data, entries, waiting;
    return Promise.all([O.gameData(url), Outbox.list(gameId)]).then(function (found) {
      data = found[0];
      entries = found[1];
      waiting = entries.filter(function (e) { return e.state === "waiting"; });
      if (!data.editable) throw new Error("read-only");
      var problems = missing(data);
      if (problems.length) { showErrors(problems); return null; }
      if (editing && editing.replaces) return replaceOwn(data, entries);
      var entry = entryOf(data, waiting, sentAs);
      return O.checkSave(data, O.pendingOf(waiting), { action: entry.action, entry: entry.entry, n: entry.n }).then(function (answer) {
        if (!answer.ok) { showErrors(answer.errors); return null; }
        entry.preview = answer.deal || null;
        return keep(stamp(entry, data, waiting, answer.deal, sentAs));
      }, function () {
        entry.unchecked = true;  // no engine on this phone yet: the server checks it at sync
        return keep(stamp(entry, data, waiting, null, sentAs));
      });
    }).catch(function (error) {
      say(box.getAttribute(error && error.message === "read-only" ? "data-text-view-only" : "data-text-no-engine"));
    });
  }

  function keep(entry) {
    return Outbox.add(entry).then(saved);
  }

  function saved() {
    sessionStorage.setItem("sk-saved", box.getAttribute("data-text-saved"));
    O.askBackgroundSync();
    window.location.assign(box.getAttribute("data-game-url"));
  }

  // This phone's own entry, changed where it waits: the outbox with the new deal in its
  // place is checked whole, then it is kept under the same entry id (sent once).
  function replaceOwn(data, entries) {
    var own = entries.filter(function (e) { return e.entry_id === editing.replaces; })[0];
    if (!own) return saveAs(null);
    var changed = entries.map(function (e) {
      return e === own ? { action: e.action, entry: formEntry(), entry_id: e.entry_id, state: e.state } : e;
    });
    return O.checkSave(data, O.pendingOf(changed), null).then(function (answer) {
      if (!answer.ok) { showErrors(answer.errors); return null; }
      own.entry = formEntry();
      own.preview = null;
      delete own.unchecked;
      return Outbox.put(own).then(saved);
    }, function () {
      own.entry = formEntry();
      own.unchecked = true;
      return Outbox.put(own).then(saved);
    });
  }

  function saveAs(sentAs) { editing = null; return saveOffline(sentAs); }

  function queued() {
    return Outbox.list(gameId).then(function (entries) { return entries.length > 0; }, function () { return false; });
  }

  // Online with nothing waiting, the deal is sent under an entry id: a network that fails
  // under it (no answer) queues the same entry, under the same id, as an offline save.
  // A send that got no answer and could not be queued (no engine on this phone) keeps its
  // id for the next tap: had it reached the server, the retry is still written once.
  var unanswered = null;

  function sendOnline(submitter) {
    var sentAs = unanswered || Outbox.newId();
    return O.send(form, submitter, sentAs).then(function (outcome) {
      unanswered = outcome === "network" ? sentAs : null;
      if (outcome === "written") {
        var typed = field("position_n");
        Outbox.remember({ entry_id: sentAs, game: gameId, action: n ? "edit" : "record", n: n || (typed ? Number(typed.value) || null : null) })
          .then(function () { window.location.assign(box.getAttribute("data-game-url")); });
      }
      else if (outcome === "network") return saveOffline(sentAs);
      else O.postAsUsual(form, submitter);  // refused: the server's page says why
    });
  }

  var busy = false;  // one Save at a time: a second tap must not make a second entry
  form.addEventListener("submit", function (event) {
    if (form.hasAttribute("data-offline-checked")) return;  // the server's own page is wanted
    event.preventDefault();
    if (busy) return;
    busy = true;
    var submitter = event.submitter;
    queued().then(function (waiting) {
      return navigator.onLine && !waiting && !editing ? sendOnline(submitter) : saveOffline();
    }).then(function () { busy = false; }, function () { busy = false; });
  });

  // A conflict the player chose to change: its captures back in the form, told to the
  // form's conveniences (deal_form.js: sums, the Save gate, the holder rows, Trix taps).
  function prefill() {
    var draft = O.json(sessionStorage.getItem("sk-draft-" + gameId));
    if (!draft || !draft.entry || draft.entry.contracts.join(",") !== contracts.join(",")) return;
    sessionStorage.removeItem("sk-draft-" + gameId);
    if (draft.replaces || draft.edit) editing = { replaces: draft.replaces || null, edit: draft.edit || null, n: draft.n || null };
    var entry = draft.entry;
    var caps = entry.captures;
    function pick(name, value) {
      var input = value === null || value === undefined ? null : form.querySelector('[name="' + name + '"][value="' + value + '"]');
      if (input) input.checked = true;
    }
    function card(key, cap) {
      if (!cap) return;
      pick(key + "_taker", cap.taker);
      var toggle = field(key + "_doubled");
      if (toggle) toggle.checked = cap.doubled_by !== null && cap.doubled_by !== undefined;
      pick(key + "_doubled_by", cap.doubled_by);
    }
    if (entry.king !== undefined) pick("king", entry.king);
    card("kh", caps.king_of_hearts);
    if (caps.queens) QUEENS.forEach(function (q) { card("q" + q, caps.queens["Q" + q.toUpperCase()]); });
    var changed = [];
    ["diamonds", "tricks"].forEach(function (name) {
      (caps[name] || []).forEach(function (value, i) {
        var input = field(name + "-" + i);
        if (input) { input.value = String(value); changed.push(input); }
      });
    });
    (caps.trix_order || []).forEach(function (seat, i) {
      var select = field("trix-" + i);
      if (select) { select.value = seat === null ? "" : String(seat); changed.push(select); }
    });
    changed.forEach(function (input) {
      input.setAttribute("data-typed", "1");
      input.dispatchEvent(new Event(input.tagName === "SELECT" ? "change" : "input", { bubbles: true }));
    });
    if (document.activeElement && document.activeElement.blur) document.activeElement.blur();
  }

  // A club night's table names its first king with its first deal (R2): the question
  // "Who was dealt the 7?" is asked exactly while the phone's game has no entry yet. A copy
  // of the form kept before a first deal saved on this phone asks it no more; one kept
  // later asks it again after an undo back to the start.
  function sevenGroup(data) {
    var group = O.el("fieldset", "seats");
    group.id = "king-group";
    group.setAttribute("data-testid", "seven-hearts");
    group.appendChild(O.el("legend", "", box.getAttribute("data-text-seven-legend")));
    group.appendChild(O.el("p", "hint", box.getAttribute("data-text-seven-hint")));
    var choices = group.appendChild(O.el("div", "choices four"));
    data.players.forEach(function (name, seat) {
      var label = choices.appendChild(O.el("label", "choice"));
      var input = label.appendChild(document.createElement("input"));
      input.type = "radio"; input.name = "king"; input.value = String(seat); input.id = "king-" + seat;
      label.appendChild(O.el("span", "", name)).setAttribute("dir", "auto");
    });
    return group;
  }

  function fitSeven(data, answer) {
    if (n || !answer.ok) return;
    var group = document.getElementById("king-group");
    if (group && !answer.first_king_open) group.remove();
    else if (!group && answer.first_king_open) {
      var version = field("version");
      form.insertBefore(sevenGroup(data), version ? version.nextSibling : form.firstChild);
    }
  }

  prefill();
  // Offline, or with entries waiting (the server's page knows nothing of them), the form is
  // fitted to the game as the engine on the phone replays it.
  Outbox.list(gameId).then(function (entries) {
    var waiting = entries.filter(function (e) { return e.state === "waiting"; });
    if (navigator.onLine && !waiting.length) return;
    hideStale();
    return O.gameData(box.getAttribute("data-offline-url")).then(function (data) {
      return O.check(data, O.pendingOf(waiting), null).then(function (answer) {
        title(data, answer);
        fitSeven(data, answer);
      }, function () { roughTitle(data, waiting); });
    });
  }).catch(function () {});
})();
