// scorekeeper: offline play on the game page (templates/offline/_game.html).
// - Every game opened is kept on the phone with no tap: its pages, and the rules
//   engine once per phone (offline.js); where the browser cannot, the panel says so.
// - Entries waiting to sync: the scoreboard, the heading and the contract
//   buttons as the engine on the phone computes them, and the list of entries
//   "waiting to sync".
// - Before the engine is ready: the deal's number, the contracts left and the
//   latest entry from the server's log plus the outbox; the rest "not checked yet".
// - Undo and redeal without a network: an undo takes back the phone's own last
//   entry (one sent once whose answer was lost is undone on the server, by an undo
//   queued behind it), or queues an undo of one already on the server; a redeal is
//   checked by the engine on the phone and queued, with the time it was played.
//   Online (nothing waiting), both are sent by script under an entry id, and
//   queued under it if no answer comes.
// - A conflict (an entry the server refused once back online): a deal typed for a
//   position another phone took asks "the same deal?" (discard mine, mine is the
//   next deal, change it); any other, what this phone entered beside what others
//   recorded since (never this phone's own deals); keep (send again), change
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
  var texts = { contracts: {}, symbols: {}, red: [] };
  var urls = {};
  var line = panel.querySelector("[data-offline-line]");
  // A redeal keeps the time it was played, as a deal does: deal_form.js's helper, loaded
  // here once the page is idle, so that the game page itself stays as light as it was.
  if (!window.SKPlayed && document.currentScript) {
    var helper = document.createElement("script");
    helper.src = new URL("../deal_form.js", document.currentScript.src).href;
    document.head.appendChild(helper);
  }

  function text(name) { return texts[name] || ""; }
  function say(name) { if (text(name)) line.textContent = text(name); }
  function contractsText(list) { return list.map(function (c) { return texts.contracts[c] || c; }).join(" + "); }

  // The phone's copy of the game, with the panel's words (fresh online, kept offline).
  function gameData() {
    return O.gameData(url).then(function (data) {
      texts = data.texts || texts;
      names = data.players;
      urls = data.urls;
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
    var typed = entry.fields && entry.fields.position;  // before the engine: the number typed for
    var n = deal ? deal.n : entry.preview ? entry.preview.n : typed ? typed.n : "";
    return O.fill(text("deal"), { n: n, contracts: contractsText(entry.entry.contracts) });
  }

  // Every deal of a game state, in order (kingdoms, then extra deals).
  function dealsOf(state) {
    var deals = [];
    state.kingdoms.forEach(function (k) { deals = deals.concat(k.deals); });
    return deals.concat(state.extra_deals || []);
  }

  // --- the board, drawn from the phone's one game state (phone.screen) ------------------
  // Offline, or while entries wait, every part of the board the server worded is drawn
  // again from one projection (the server's last log, then this phone's outbox, replayed
  // by the engine): the heading, the turn, the contracts, the totals, the sheet, the
  // contracts grid and the latest entry. Nothing the server drew for an older game stays.

  function one(selector) { return document.querySelector(selector); }
  function seatName(seat) { return seat === null || seat === undefined ? "" : names[seat]; }
  function pair(team) { return team ? names[team[0]] + " & " + names[team[1]] : ""; }

  // A sentence whose names are isolated (<bdi>) and whose king is bold (<strong>) as the
  // server's: ``parts`` maps a placeholder to its text.
  function sentence(template, parts) {
    var node = document.createDocumentFragment();
    var rest = template.replace(/<\/?strong>/g, "");
    var strong = /<strong>%\((\w+)\)s<\/strong>/.exec(template);
    var re = /%\((\w+)\)s/g, at = 0, m;
    while ((m = re.exec(rest))) {
      node.appendChild(document.createTextNode(rest.slice(at, m.index)));
      var value = m[1] in parts ? String(parts[m[1]]) : m[0];
      var wrap = O.el(strong && strong[1] === m[1] ? "strong" : "bdi", "", value);
      node.appendChild(wrap);
      at = re.lastIndex;
    }
    node.appendChild(document.createTextNode(rest.slice(at)));
    return node;
  }

  function para(template, parts, testid) {
    var p = O.el("p");
    p.appendChild(sentence(template, parts));
    if (testid) p.setAttribute("data-testid", testid);
    return p;
  }

  function mark(contract) {
    var m = O.el("bdi", texts.red.indexOf(contract) >= 0 ? "sym red" : "sym", texts.symbols[contract]);
    m.setAttribute("dir", "ltr");
    m.setAttribute("aria-hidden", "true");
    return m;
  }

  function showHeading(s) {
    var heading = one('[data-testid="game-status"]');
    if (!heading) return;
    heading.textContent = s.over ? text("game-over") : s.needs_extra_deal ? text("tie") :
      O.fill(text("deal-of"), { n: O.number(s.next_deal), total: O.number(s.deals_total) });
  }

  function showTotals(s) {
    s.totals.forEach(function (total, seat) {
      var box = one('[data-testid="total-' + seat + '"]');
      if (!box) return;
      box.querySelector(".total-score").textContent = O.score(total);
      box.classList.toggle("leader", s.leaders.indexOf(seat) >= 0);
    });
    (s.team_totals || []).forEach(function (total, team) {
      var cell = one('[data-testid="team-' + team + '"] .total-score');
      if (cell) cell.textContent = O.score(total);
    });
    var leader = one('[data-testid="leader"]');
    if (leader) leader.hidden = true;  // worded by the server for the game it last saw
  }

  // The turn: the kingdom, its king, the dealer, the first leader, the kingdom's team.
  function showTurn(s) {
    var turn = one('[data-testid="turn"]');
    if (s.over || s.needs_extra_deal) { if (turn) turn.hidden = true; return; }
    if (!turn) {
      turn = O.el("section", "panel turn");
      turn.setAttribute("data-testid", "turn");
      var totals = one('[data-testid="team-totals"]') || one('[data-testid="totals"]');
      totals.parentNode.insertBefore(turn, (one('[data-testid="leader"]') || totals).nextSibling);
    }
    turn.hidden = false;
    turn.textContent = "";
    var k = s.kingdom, king = seatName(k.king);
    var where = { number: O.number(k.number), total: O.number(k.total), king: king };
    if (k.king === null) {
      turn.appendChild(para(text("kingdom-seven"), where));
      return;
    }
    var trixOnly = s.choices.length === 1 && s.choices[0].join() === "trix";
    if (s.dealer !== null) {
      turn.appendChild(para(text("kingdom-of"), where, "kingdom-line"));
      turn.appendChild(para(text("dealer-line"), {
        dealer: seatName(s.dealer), leader: seatName(trixOnly ? s.trix_first : s.first_lead), king: king
      }, "dealer-line"));
    } else {
      turn.appendChild(para(text("kingdom-deals"), where, "kingdom-line"));
    }
    if (k.team) turn.appendChild(para(text("team-line"), { names: pair(k.team) }, "kingdom-team"));
    var hint = para(text("first-lead"), { leader: seatName(s.first_lead), first: seatName(s.trix_first) });
    hint.className = "hint";
    turn.appendChild(hint);
  }

  // The contracts the king may still announce: a button each, to its form (kept offline).
  function formUrl(choice) {
    var link = all('a.contract-button[data-testid="contract-' + choice.join("-") + '"]')[0];
    if (link) return link.getAttribute("href");
    return urls.new_deal + "?contracts=" + encodeURIComponent(choice.join(","));
  }

  function showChoices(s, data) {
    var section = one('[data-testid="choose-contract"]');
    if (!data.editable) return;
    if (!section) {
      section = O.el("section", "panel");
      section.setAttribute("data-testid", "choose-contract");
      var before = one('[data-testid="not-zero-sum"]') || one('[data-testid="latest"]') || one(".sheet-title");
      before.parentNode.insertBefore(section, before);
    }
    section.hidden = s.over || !s.choices.length;
    var hrefs = s.choices.map(formUrl);
    section.textContent = "";
    var title = section.appendChild(O.el("h2"));
    var king = s.kingdom.king === null ? null : seatName(s.kingdom.king);
    title.appendChild(king === null ? sentence(text("which-any"), {}) :
      sentence(text("which"), { king: king }));
    var grid = section.appendChild(O.el("div", "contract-grid"));
    s.choices.forEach(function (choice, i) {
      var a = grid.appendChild(O.el("a", "contract-button"));
      a.href = hrefs[i];
      a.setAttribute("data-testid", "contract-" + choice.join("-"));
      choice.forEach(function (c) { a.appendChild(mark(c)); });
      a.appendChild(O.el("span", "", contractsText(choice)));
    });
  }

  // The latest entry, with its Edit and its Undo (asked in place; see askUndo).
  function lastWords(last, yes) {
    if (last.kind !== "deal") return text((yes ? "undo-" : "last-") + last.kind);
    return O.fill(text(yes ? "undo-deal" : "last-deal"), { n: O.number(last.n), contracts: contractsText(last.contracts) });
  }

  function showLatest(s, data) {
    var latest = one('[data-testid="latest"]');
    if (!data.editable) return;
    if (!s.last) { if (latest) latest.hidden = true; return; }
    if (!latest) {
      latest = O.el("div", "latest");
      latest.setAttribute("data-testid", "latest");
      var title = one(".sheet-title");
      title.parentNode.insertBefore(latest, title);
    }
    latest.hidden = false;
    latest.textContent = "";
    latest.appendChild(O.el("p", "", lastWords(s.last, false)));
    if (s.last.kind === "deal") {
      var edit = latest.appendChild(O.el("a", "button button-quiet", text("edit")));
      edit.href = s.last.entry_id ? formUrl(s.last.contracts) : data.urls.edit.replace(/0\/edit$/, s.last.n + "/edit");
      edit.setAttribute("data-testid", "latest-edit");
      if (s.last.entry_id) edit.setAttribute("data-entry-id", s.last.entry_id);
    }
    var undo = latest.appendChild(O.el("a", "button button-quiet", text("undo-button")));
    undo.href = data.urls.undo;
    undo.setAttribute("data-testid", "latest-undo");
    latest.setAttribute("data-undo-question", lastWords(s.last, true));
  }

  // Undo is asked in place, on the server's page as on the phone's (delegated: the live
  // updates and the drawing replace the button).
  document.addEventListener("click", function (event) {
    var undo = event.target.closest && event.target.closest('[data-testid="latest-undo"]');
    if (!undo) return;
    event.preventDefault();
    var latest = undo.closest('[data-testid="latest"]');
    var label = one('[data-testid="undo-form"] .check span');
    askUndo(latest, latest.getAttribute("data-undo-question") || (label ? label.textContent : ""));
  });

  // Edit of the latest deal: offline (the server's correction form is not kept), or of this
  // phone's own entry, its contract's form (kept on the phone) opens filled in. Delegated:
  // the server's button, there before the phone's board is drawn, leads there too.
  document.addEventListener("click", function (event) {
    var edit = event.target.closest && event.target.closest('[data-testid="latest-edit"]');
    if (!edit || (navigator.onLine && !edit.hasAttribute("data-entry-id"))) return;
    event.preventDefault();
    Promise.all([gameData(), Outbox.list(gameId)]).then(function (found) {
      var last = drawn ? drawn.answer.screen.last : O.rough(found[0], found[1]).last;
      if (last && last.kind === "deal") return editLatest(last, found[0]);
    }).catch(function () {});
  });

  // The score sheet: each kingdom's deals and redeals, its totals and their check.
  function sheetHead(section) {
    if (section.number === 0) return text("tie-break");
    var values = { number: O.number(section.number), name: seatName(section.king), names: pair(section.team) };
    if (section.king === null) return O.fill(text("sheet-head-seven"), values);
    return O.fill(text(section.team ? "sheet-head-team" : "sheet-head"), values);
  }

  function sheetRow(row, data) {
    var tr = O.el("tr");
    if (row.redeal) {
      tr.className = "redeal-row";
      tr.setAttribute("data-testid", "redeal");
      tr.appendChild(O.el("td", "n", "↺")).setAttribute("aria-hidden", "true");
      tr.appendChild(O.el("td", "", text(row.redeal.kind === "misdeal" ? "misdeal-row" : "redeal-row"))).colSpan = 5;
      return tr;
    }
    tr.id = "deal-" + row.n;
    tr.setAttribute("data-testid", "deal-" + row.n);
    var n = tr.appendChild(O.el("td", "n"));
    if (row.n <= data.state.deals_played) {
      var a = n.appendChild(O.el("a", "", O.number(row.n)));
      a.href = data.urls.deal.replace(/0$/, row.n);
    } else n.textContent = O.number(row.n);
    var contract = tr.appendChild(O.el("td", "contract"));
    row.contracts.forEach(function (c) { contract.appendChild(mark(c)); });
    contract.appendChild(document.createTextNode(" " + contractsText(row.contracts)));
    row.scores.forEach(function (v) { tr.appendChild(O.el("td", "num", O.score(v))); });
    return tr;
  }

  function sheetSection(section, s, data) {
    var body = O.el("tbody", "kingdom");
    body.id = "kingdom-" + section.number;
    body.setAttribute("data-testid", "kingdom-" + section.number);
    var head = body.appendChild(O.el("tr", "kingdom-head"));
    var th = head.appendChild(O.el("th", "", sheetHead(section)));
    th.colSpan = 6;
    th.scope = "rowgroup";
    section.rows.forEach(function (row) { body.appendChild(sheetRow(row, data)); });
    if (!section.rows.length) return body;
    var total = body.appendChild(O.el("tr", "subtotal"));
    total.setAttribute("data-testid", "kingdom-" + section.number + "-total");
    var label = total.appendChild(O.el("th"));
    label.colSpan = 2;
    label.scope = "row";
    if (!section.finished) label.textContent = text("so-far");
    else if (section.adds_up) {
      label.textContent = text("total") + " ";
      label.appendChild(O.el("span", "ok", "✓ " + O.score(data.state.zero_sum ? 0 : section.expected)));
    } else {
      label.textContent = text("total") + " ";
      label.appendChild(O.el("span", "bad", O.fill(text("expected"), { total: O.score(section.expected) })));
    }
    section.totals.forEach(function (v) { total.appendChild(O.el("td", "num", O.score(v))); });
    return body;
  }

  function showSheet(s, data) {
    var table = one('[data-testid="sheet"]');
    var none = one('[data-testid="no-deals"]');
    var any = s.sheet.some(function (k) { return k.rows.length; });
    if (none) none.hidden = any;
    if (!table && !any) return;
    if (!table) {
      var wrap = O.el("div", "sheet-wrap");
      table = wrap.appendChild(O.el("table", "sheet"));
      table.setAttribute("data-testid", "sheet");
      var head = table.appendChild(O.el("thead")).appendChild(O.el("tr"));
      head.appendChild(O.el("th", "n", "#")).scope = "col";
      head.appendChild(O.el("th", "contract", text("contract"))).scope = "col";
      names.forEach(function (name) { head.appendChild(O.el("th", "num")).appendChild(O.el("bdi", "", name)); });
      table.appendChild(O.el("tfoot"));
      var title = one(".sheet-title");
      title.parentNode.insertBefore(wrap, (none || title).nextSibling);
    }
    table.parentNode.hidden = !any;
    all('[data-testid="sheet"] tbody').forEach(function (body) { body.remove(); });
    var foot = table.querySelector("tfoot");
    s.sheet.forEach(function (section) { table.insertBefore(sheetSection(section, s, data), foot); });
    foot.textContent = "";
    var grand = foot.appendChild(O.el("tr", "grand-total"));
    grand.setAttribute("data-testid", "grand-total");
    var label = grand.appendChild(O.el("th", "", text("total")));
    label.colSpan = 2;
    label.scope = "row";
    s.totals.forEach(function (t, seat) {
      grand.appendChild(O.el("td", s.leaders.indexOf(seat) >= 0 ? "num leader" : "num", O.score(t)));
    });
    all('[data-testid="sheet"] thead th.num').forEach(function (th, seat) {
      th.classList.toggle("leader", s.leaders.indexOf(seat) >= 0);
    });
    showPlayed(s, table.parentNode);
  }

  // Kings by contracts, like the paper sheet: the deal that played each contract.
  function showPlayed(s, after) {
    var table = one('[data-testid="played"]');
    if (!table) {
      table = O.el("table", "played");
      table.setAttribute("data-testid", "played");
      table.appendChild(O.el("caption", "", text("played")));
      var head = table.appendChild(O.el("thead")).appendChild(O.el("tr"));
      head.appendChild(O.el("th")).appendChild(O.el("span", "vh", text("king")));
      Object.keys(texts.symbols).forEach(function (c) {
        var th = head.appendChild(O.el("th"));
        th.appendChild(mark(c));
        th.appendChild(O.el("span", "vh", texts.contracts[c]));
      });
      table.appendChild(O.el("tbody"));
      after.parentNode.insertBefore(table, after.nextSibling);
    }
    var body = table.querySelector("tbody");
    body.textContent = "";
    s.played.forEach(function (row) {
      var tr = body.appendChild(O.el("tr"));
      tr.setAttribute("data-testid", "played-" + row.number);
      var th = tr.appendChild(O.el("th"));
      th.scope = "row";
      if (row.king !== null) th.appendChild(O.el("bdi", "", names[row.king])); else th.textContent = O.number(row.number);
      row.deals.forEach(function (n) { tr.appendChild(O.el("td", n ? "done" : "", n ? O.number(n) : "")); });
    });
  }

  // The undo form in "Fix a mistake" names the latest entry, as the server's.
  function showFix(s) {
    var label = one('[data-testid="undo-form"] .check span');
    if (label && s.last) label.textContent = lastWords(s.last, true);
    var combine = one('[data-testid="combine-form"]');
    if (combine) combine.hidden = true;  // the server's choices, for the game it last saw
  }

  function showBoard(s, data) {
    showHeading(s);
    showTotals(s);
    showTurn(s);
    showChoices(s, data);
    showLatest(s, data);
    showSheet(s, data);
    showFix(s);
    document.documentElement.setAttribute("data-offline-board", "");  // drawn by the phone
  }

  function showPending(entries, answer) {
    var list = panel.querySelector("[data-pending-list]");
    list.textContent = "";
    var deals = answer ? answer.deals : {};
    entries.filter(function (e) { return e.state === "waiting"; }).forEach(function (entry) {
      var deal = deals[entry.entry_id] || null;
      var item = O.el("li", "pending", describe(entry, deal));
      item.setAttribute("data-testid", "pending-entry");
      var mark = answer ? text("waiting") : text("waiting") + " · " + text("not-checked");
      if (!answer) item.setAttribute("data-unchecked", "");
      item.appendChild(O.el("span", "pending-mark", " · " + mark));
      if (deal) item.appendChild(O.el("span", "pending-scores", scoresLine(deal.scores)));
      list.appendChild(item);
    });
    panel.querySelector("[data-pending]").hidden = !list.children.length;
  }

  // --- the board before the engine is ready ----------------------------------------------
  // Without the engine (Save-Data, or not fetched yet) the phone still knows the deals'
  // number (the server's log and the entries waiting) and which contracts they used: the
  // heading, the contracts and the latest entry follow them; who deals and leads is left
  // out, marked "not checked yet", rather than shown as the server last said it.

  function roughChoices(data, entries) {
    var used = [];
    O.pendingOf(entries).forEach(function (e) {
      if (e.action === "record") used = used.concat(e.entry.contracts);
    });
    var left = (data.state.available_choices || []).filter(function (choice) {
      return !choice.some(function (c) { return used.indexOf(c) >= 0; });
    });
    if (left.length || !used.length) return { choices: left, king: data.state.current_king };
    // The kingdom ended on this phone: the next king's contracts, all of them (not checked).
    return { choices: Object.keys(texts.symbols).map(function (c) { return [c]; }), king: null };
  }

  function showRough(data, entries) {
    var r = O.rough(data, entries);
    if (r.deals === data.state.deals_played && !O.pendingOf(entries).length) return;
    var next = r.deals + 1, total = data.state.deals_total;
    var over = next > total;
    var heading = one('[data-testid="game-status"]');
    if (heading) {
      heading.textContent = over ? text("not-checked") : O.fill(text("deal-of"), { n: O.number(next), total: O.number(total) });
      heading.setAttribute("data-unchecked", "");
    }
    var turn = one('[data-testid="turn"]');
    if (turn) {
      turn.textContent = "";
      turn.appendChild(O.el("p", "hint", text("not-checked"))).setAttribute("data-testid", "turn-unchecked");
    }
    var found = roughChoices(data, entries);
    var kingdom = { king: found.king, number: 0, total: 0 };
    showChoices({ over: over, choices: over ? [] : found.choices, kingdom: kingdom }, data);
    if (r.last) showLatest({ last: r.last }, data);
    document.documentElement.setAttribute("data-offline-board", "unchecked");
  }

  // --- conflicts --------------------------------------------------------------------------
  // An entry the server refused at sync. A deal typed for a position another phone took
  // meanwhile asks "the same deal?", as the server's page does (web/deals/same_deal.py):
  // both entries side by side, who recorded what, "Discard mine" first (the big button
  // when they agree) and the explicit "Mine is the next deal". Any other refusal shows
  // this phone's entry beside what others recorded since. This phone's own deals, synced
  // before (their ids are remembered: Outbox.mine), are never shown as another phone's.

  function sameCaptures(a, b) {
    return JSON.stringify([a.contracts, a.captures]) === JSON.stringify([b.contracts, b.captures]);
  }

  // A deal of the game now that this phone wrote (by its id's answer: its number and deal).
  function ownDeal(own, deal) {
    return Object.keys(own).some(function (id) {
      var r = own[id];
      return r.n === deal.n && (r.action === "record" || r.action === "edit") && (!r.deal || sameCaptures(r.deal, deal));
    });
  }

  function button(label, choice, className) {
    var b = O.el("button", className || "button", label);
    b.type = "button";
    b.setAttribute("data-choice", choice);
    b.setAttribute("data-testid", "conflict-" + choice);
    return b;
  }

  function side(node, name, heading) {
    var box = node.querySelector(".side-by-side").appendChild(O.el("div", "side"));
    box.setAttribute("data-testid", "conflict-" + name);
    box.appendChild(O.el("h4", "", heading));
    return box;
  }

  function mineSide(node, entry, scores) {
    var mine = side(node, "mine", text("mine"));
    mine.appendChild(O.el("p", "", describe(entry, null)));
    if (scores) mine.appendChild(O.el("p", "muted", scoresLine(scores)));
  }

  function conflictFrame(title) {
    var node = O.el("div", "conflict");
    node.setAttribute("data-testid", "conflict");
    node.appendChild(O.el("h3", "", title));
    node.appendChild(O.el("p", "conflict-why")).setAttribute("data-conflict-why", "");
    node.appendChild(O.el("div", "side-by-side"));
    return node;
  }

  function whyOf(node, refusal) {
    node.querySelector("[data-conflict-why]").textContent =
      (refusal.errors || []).map(function (e) { return e.message; }).join(" ");
  }

  // When a deal was played, in the page's language and digits.
  function when(iso) {
    var date = new Date(iso);
    if (isNaN(date.getTime())) return "";
    var digits = document.documentElement.getAttribute("data-digits") === "arab" ? "arab" : "latn";
    try {
      return date.toLocaleString((document.documentElement.lang || "en") + "-u-nu-" + digits,
        { weekday: "short", hour: "2-digit", minute: "2-digit" });
    } catch (e) { return date.toLocaleString(); }
  }

  function sameDealBox(entry, own) {
    var refusal = entry.refusal, taken = refusal.taken, other = taken.other;
    var n = taken.position.n;
    var node = conflictFrame(other ? O.fill(text("same-recorded"), { n: O.number(n) }) : text("same-moved"));
    node.setAttribute("data-same-deal", "");
    whyOf(node, refusal);
    node.insertBefore(O.el("h4", "", text("same-question")), node.querySelector(".side-by-side"));
    if (other) {
      var source = own[other.entry_id] ? "by-own" : "by-" + other.source;
      var theirs = side(node, "theirs", text(source) || text("by-page"));
      theirs.setAttribute("data-recorded-by", own[other.entry_id] ? "this-phone" : "another");
      var at = when(other.played_at || other.recorded_at);
      if (at) theirs.appendChild(O.el("p", "muted", O.fill(text("played-when"), { when: at })));
      theirs.appendChild(O.el("p", "", O.fill(text("deal"), { n: O.number(other.deal.n), contracts: contractsText(other.deal.contracts) })));
      if (other.deal.king !== null && other.deal.king !== undefined) theirs.appendChild(O.el("p", "muted", O.fill(text("king-was"), { king: names[other.deal.king] })));
      theirs.appendChild(O.el("p", "muted", scoresLine(other.deal.scores)));
    }
    mineSide(node, entry, (taken.mine && taken.mine.scores) || (entry.preview && entry.preview.scores));
    if (other) {
      var verdict = node.appendChild(O.el("p", "", taken.same ? text("same-yes") : O.fill(text("same-differ"), { n: O.number(n) })));
      verdict.setAttribute("data-testid", "same-verdict");
    }
    var actions = node.appendChild(O.el("div", "actions"));
    actions.appendChild(button(text("discard-mine"), "discard", taken.same ? "button button-big" : "button"));
    var next = taken.next;
    if (next && next.valid) {
      var label = next.king === null || next.king === undefined ? O.fill(text("next"), { n: O.number(next.n) }) :
        O.fill(text("next-king"), { n: O.number(next.n), king: names[next.king] });
      actions.appendChild(button(label, "next", taken.same ? "button button-quiet" : "button"));
    } else if (next) {
      var not = actions.appendChild(O.el("div", "hint"));
      not.setAttribute("data-testid", "conflict-not-next");
      not.appendChild(O.el("p", "", O.fill(text("not-next"), { n: O.number(next.n) })));
      var list = not.appendChild(O.el("ul", "errors"));
      (next.problems || []).forEach(function (p) { list.appendChild(O.el("li", "", p.message)); });
    }
    actions.appendChild(button(text("change"), "change", "button button-quiet"));
    return node;
  }

  function conflictBox(entry, own) {
    var refusal = entry.refusal || {};
    var node = conflictFrame(text("conflict"));
    whyOf(node, refusal);
    mineSide(node, entry, entry.preview && entry.preview.scores);
    var theirs = side(node, "theirs", text("theirs"));
    var recorded = refusal.game ? dealsOf(refusal.game).slice(entry.base_deals || 0) : [];
    recorded = recorded.filter(function (deal) { return !ownDeal(own, deal); });
    if (!recorded.length) theirs.appendChild(O.el("p", "", text("theirs-none")));
    recorded.forEach(function (deal) {
      theirs.appendChild(O.el("p", "", O.fill(text("deal"), { n: deal.n, contracts: contractsText(deal.contracts) })));
      theirs.appendChild(O.el("p", "muted", scoresLine(deal.scores)));
    });
    var actions = node.appendChild(O.el("div", "actions"));
    var choices = entry.entry && entry.entry.contracts ? ["keep", "change", "discard"] : ["keep", "discard"];
    choices.forEach(function (choice) {
      actions.appendChild(button(text(choice), choice, choice === "discard" ? "button button-danger" : "button"));
    });
    return node;
  }

  function showConflicts(entries) {
    var box = panel.querySelector("[data-conflicts]");
    var entry = entries.filter(function (e) { return e.state === "conflict"; })[0];
    if (!entry) { box.textContent = ""; return Promise.resolve(); }
    return Outbox.mine(gameId).then(function (own) {
      var node = entry.refusal && entry.refusal.taken ? sameDealBox(entry, own) : conflictBox(entry, own);
      Array.prototype.forEach.call(node.querySelectorAll("[data-choice]"), function (b) {
        b.addEventListener("click", function () { decide(entry, b.getAttribute("data-choice")); });
      });
      box.textContent = "";
      box.appendChild(node);
    });
  }

  // "Mine is the next deal": the same entry (the same id: the server wrote nothing of it),
  // typed now for the game's next position; this phone's deals waiting after it move on
  // with it (their king is left to the server to say).
  function mineIsNext(entry) {
    var next = entry.refusal.taken.next;
    var moved = next.n - entry.refusal.taken.position.n;
    return Outbox.list(gameId).then(function (entries) {
      var later = entries.filter(function (e) {
        return e.seq > entry.seq && e.action === "record" && e.fields && e.fields.position;
      });
      entry.fields = entry.fields || {};
      entry.fields.position = { n: next.n, king: next.king === undefined ? null : next.king, game: gameId };
      entry.state = "waiting";
      delete entry.refusal;
      return Promise.all([Outbox.put(entry)].concat(later.map(function (e) {
        e.fields.position = { n: e.fields.position.n + moved, king: null, game: gameId };
        return Outbox.put(e);
      })));
    });
  }

  function decide(entry, choice) {
    var done;
    if (choice === "keep") {
      entry.state = "waiting";
      delete entry.refusal;
      done = Outbox.put(entry);
    } else if (choice === "next") {
      done = mineIsNext(entry);
    } else if (choice === "discard") {
      done = Outbox.discard(entry);
    } else {
      sessionStorage.setItem("sk-draft-" + gameId, JSON.stringify(entry));
      done = Outbox.remove(entry.entry_id, gameId).then(function () {
        var key = "contract-" + entry.entry.contracts.join("-");
        var link = all('[data-testid="choose-contract"] a.contract-button').filter(function (a) {
          return a.getAttribute("data-testid") === key;
        })[0];
        window.location.assign(link ? link.href : formUrl(entry.entry.contracts));  // its form, filled in again (form.js)
      });
    }
    return done.then(function () { return O.syncNow(); }).then(function () {
      return Outbox.list(gameId);
    }).then(function (left) {
      // Nothing of this game left on the phone: the server's page is the game; show it.
      if (!left.length && navigator.onLine && choice !== "change") {
        if (!reloading) { reloading = true; window.location.reload(); }
      }
      else return render();
    });
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
  // Undo takes back the phone's own last entry where it waits; one that was sent once and
  // whose answer was lost may be on the server already, so it is undone there, by an undo
  // queued behind it (sent once, in order, at the version that entry made). An undo or a
  // redeal behind other entries waiting takes the version they make at sync.
  function queue(form, action, sentAs) {
    return Promise.all([gameData(), Outbox.list(gameId)]).then(function (found) {
      var data = found[0];
      var waiting = found[1].filter(function (e) { return e.state === "waiting"; });
      if (!data.editable) { say("view-only"); return null; }
      var last = waiting[waiting.length - 1];
      var own = action === "undo" && last && (last.action === "record" || last.action === "redeal");
      if (own && !last.sent) return Outbox.remove(last.entry_id, gameId);  // the phone's own, taken back
      var entry = {
        game: gameId, action: action, after: waiting.length,
        base_version: data.version, base_deals: data.state.deals_played,
        urls: { offline: url, game: window.location.pathname }
      };
      if (sentAs) { entry.entry_id = sentAs; entry.sent = true; }
      if (last && !sentAs) entry.follows = last.entry_id;
      if (own) entry.undoes = last.entry_id;
      if (action === "undo") {
        entry.version = sentAs ? Number(formValue(form, "version")) || data.version : data.version;
        return Outbox.add(entry).then(O.askBackgroundSync);
      }
      entry.entry = redealEntry(form);
      var played = window.SKPlayed ? window.SKPlayed.stamp(form) : null;
      if (played && played.value) entry.fields = { played_at: played.value };
      function kept() {
        formErrors(form, []);
        form.reset();
        if (played) played.value = "";  // the next redeal is played later
        var details = form.closest("details");
        if (details) details.open = false;
        return Outbox.add(entry).then(O.askBackgroundSync);
      }
      return O.checkSave(data, O.pendingOf(waiting), { action: "redeal", entry: entry.entry }).then(function (answer) {
        if (!answer.ok) { formErrors(form, answer.errors.map(function (e) { return e.message; })); return null; }
        return kept();
      }, function () {
        entry.unchecked = true;  // no engine on this phone yet: the server checks it at sync
        return kept();
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
        if (outcome === "written") {
          Outbox.remember({ entry_id: sentAs, game: gameId, action: action })
            .then(function () { window.location.assign(window.location.pathname); });
        }
        else if (outcome === "network") return queue(form, action, sentAs).then(function () {
          return Outbox.list(gameId);
        }).then(function (waiting) {  // queued: the outbox sends it, under its id
          if (waiting.some(function (e) { return e.entry_id === sentAs; })) unanswered[action] = null;
        });
        else O.postAsUsual(form, submitter);  // refused: the server's page says why
      });
    });
  }

  // Undo, asked in place: "Yes, undo …" and its button where the latest entry was. Sent
  // as the undo form of "Fix a mistake" (online, nothing waiting) or kept on the phone.
  function askUndo(latest, question) {
    latest.textContent = "";
    var ask = latest.appendChild(O.el("p", "", question));
    ask.setAttribute("data-testid", "undo-question");
    var yes = latest.appendChild(O.el("button", "button button-danger", text("undo-submit")));
    yes.type = "button";
    yes.setAttribute("data-testid", "undo-yes");
    var no = latest.appendChild(O.el("button", "button button-quiet", text("cancel")));
    no.type = "button";
    no.setAttribute("data-testid", "undo-no");
    no.addEventListener("click", function () {
      if (drawn) render(); else window.location.reload();
    });
    yes.addEventListener("click", function () {
      if (busy) return;
      busy = true;
      yes.disabled = true;
      var form = one('[data-testid="undo-form"]');
      if (form && form.elements.confirm) form.elements.confirm.checked = true;
      var done = form ? sendOrQueue(form, "undo", null) : queue(null, "undo", null);
      done.then(free, free);
    });
  }
  function free() { busy = false; }

  // Edit of the latest deal without the server: its form (kept on the phone) opens filled
  // in. This phone's own entry is changed where it waits; a deal on the server is corrected.
  function editLatest(last, data) {
    return Outbox.list(gameId).then(function (entries) {
      var own = entries.filter(function (e) { return e.entry_id === last.entry_id; })[0];
      var draft = own ? { entry: own.entry, replaces: own.entry_id, n: last.n } : { entry: storedDeal(data, entries, last.n), edit: last.n };
      sessionStorage.setItem("sk-draft-" + gameId, JSON.stringify(draft));
      window.location.assign(formUrl(last.contracts));
    });
  }

  // Deal ``n`` as the server holds it, or as a correction waiting on this phone made it.
  function storedDeal(data, entries, n) {
    var deals = data.log.filter(function (e) { return !e.kind; });
    var entry = deals[n - 1];
    entries.forEach(function (e) { if (e.action === "edit" && e.n === n && e.state === "waiting") entry = e.entry; });
    return entry;
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

  // The board from the phone's one game state whenever the server's page may not be the
  // game (offline, or entries waiting); the list of entries waiting, each with its deal.
  var drawn = null;  // the last answer drawn, for a redraw after a live update
  function render() {
    return Promise.all([gameData(), Outbox.list(gameId)]).then(function (found) {
      var data = found[0];
      var entries = found[1];
      panel.toggleAttribute("data-has-pending", entries.length > 0);
      if (!navigator.onLine) say(data.editable ? "offline" : "view-only");
      showConflicts(entries);
      if (navigator.onLine && !entries.length) { showPending([], null); return null; }
      return O.screen(data, entries).then(function (answer) {
        drawn = { answer: answer, data: data };
        showBoard(answer.screen, data);
        showPending(entries, answer);
      }, function () {  // no engine yet: what can be told is drawn, the rest "not checked yet"
        showRough(data, entries);
        showPending(entries, null);
      });
    }).catch(function () {});
  }

  // A live update replaced the board with the server's: drawn again while entries wait.
  document.addEventListener("sk-live-swapped", function () {
    if (drawn && (!navigator.onLine || panel.hasAttribute("data-has-pending"))) render();
  });

  // Every game opened on this phone is kept on it, with no tap (offline.js keepOffline).
  // Where the browser cannot keep games, the page says so once, with what still works.
  function keepThisGame() {
    if (!navigator.onLine) return;
    O.keepOffline(gameId, url).then(function () {
      panel.setAttribute("data-kept", "");
      if (!drawn) say("ready");
    }, function (error) {
      var reason = error && error.message;
      if (reason === "no-engine") { panel.setAttribute("data-kept", ""); say("no-engine"); }
      else if (reason === "no-browser") cannotKeep();
    });
  }

  function cannotKeep() {  // boot.js shows the page's own line for it
    line.hidden = true;
    panel.querySelector("[data-cannot-keep]").hidden = false;
  }

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

  O.flashSaved();
  render();
  if (!(window.SKBoot || {}).capable) cannotKeep(); else keepThisGame();
})();
