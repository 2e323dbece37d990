// scorekeeper: the dispute desk's card picker (templates/disputes/_macros.html).
// The pages work without JavaScript: cards are typed into text boxes. This file
// makes them tap-based and fills the very same boxes, so the server reads one
// form either way. Every visible text comes from the page (data-* attributes)
// or from the server's answers, ready for translation.
"use strict";

(function () {
  var SUITS = ["S", "H", "D", "C"];
  var SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
  var RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];
  var SUIT_OF = { "♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C" };

  function all(root, selector) {
    return Array.prototype.slice.call(root.querySelectorAll(selector));
  }

  function make(tag, className, text) {
    var el = document.createElement(tag);
    if (className) el.className = className;
    if (text !== undefined) el.textContent = text;
    return el;
  }

  // "10♦", "td", "KH" -> "TD", "KH"; anything else -> null (the server reports it).
  function canonical(word) {
    var w = word.trim().toUpperCase();
    var suit = SUIT_OF[w.slice(-1)] || w.slice(-1);
    var rank = w.slice(0, -1) === "10" ? "T" : w.slice(0, -1);
    return SUITS.indexOf(suit) >= 0 && RANKS.indexOf(rank) >= 0 ? rank + suit : null;
  }

  // A number in the page's digits: "12" or "١٢" (app.js: scorekeeperNumbers).
  function digits(n) {
    var numbers = window.scorekeeperNumbers;
    return numbers ? numbers.shown(String(n)) : String(n);
  }

  function words(text) {
    return text.split(/[\s,;]+/).filter(function (w) { return w; });
  }

  function cardsIn(text) {
    return words(text).map(canonical).filter(function (c) { return c; });
  }

  function label(card) {
    return (card[0] === "T" ? "10" : card[0]) + SYMBOL[card[1]];
  }

  function isRed(card) {
    return card[1] === "H" || card[1] === "D";
  }

  function sortCards(cards) {
    return cards.slice().sort(function (a, b) {
      return SUITS.indexOf(a[1]) - SUITS.indexOf(b[1]) || RANKS.indexOf(a[0]) - RANKS.indexOf(b[0]);
    });
  }

  // A card's name in words ("Queen of spades", from the page's data-card-names), for a
  // screen reader: the symbol alone reads as "Q" or "Q black spade suit".
  var NAMES = {};

  function said(card) {
    return NAMES[card] || label(card);
  }

  // The symbol for the eye, the name for the ear.
  function cardFace(el, card) {
    el.appendChild(make("span", "", label(card))).setAttribute("aria-hidden", "true");
    el.appendChild(make("span", "vh", said(card)));
    return el;
  }

  function cardButton(card) {
    var button = cardFace(make("button", "pick-card" + (isRed(card) ? " red" : "")), card);
    button.type = "button";
    button.setAttribute("data-card", card);
    return button;
  }

  // --- which contract: tricks or Trix, doubling, presets -------------------------------------

  function contractOf(form) {
    var fixed = form.getAttribute("data-contract");
    var select = form.querySelector("[data-contract-select]");
    return fixed || (select ? select.value : "");
  }

  function showForContract(form) {
    var contract = contractOf(form);
    var chosen = contract.split(",");
    var trix = contract === "trix";
    all(form, "[data-for-contract]").forEach(function (el) {
      var want = el.getAttribute("data-for-contract");
      var show = want === "tricks" ? !trix : want === "trix" ? trix : want.split(",").some(function (w) {
        return chosen.indexOf(w) >= 0;
      });
      el.classList.toggle("off-contract", !show);
    });
  }

  // --- choosing the cards of each hand -------------------------------------------------------

  function HandPicker(form, root) {
    this.form = form;
    this.root = root;
    this.mode = root.getAttribute("data-picker");
    this.fields = {};
    this.active = null;
    var self = this;
    all(form, "[data-picker-field=hand]").forEach(function (field) {
      self.fields[field.getAttribute("data-seat")] = field;
    });
    var trick = form.querySelector("[data-picker-field=trick]");
    if (trick) this.fields.trick = trick;
    this.tabs = all(root, ".seat-tab");
    this.grid = root.querySelector("[data-grid]");
    this.buildGrid();
    this.tabs.forEach(function (tab) {
      tab.addEventListener("click", function () { self.choose(tab.getAttribute("data-seat")); });
    });
    root.querySelector("[data-clear]").addEventListener("click", function () {
      if (self.active === null) return;
      self.lists[self.active] = [];
      self.write();
    });
    all(form, "[data-layout-end]").forEach(function (select) {
      select.addEventListener("change", function () { self.render(); });
    });
    this.read();
    this.choose(this.firstOpen() || this.tabs[0].getAttribute("data-seat"));
  }

  HandPicker.prototype.limit = function (seat) {
    if (seat === "trick") return 3;
    return 13;
  };

  HandPicker.prototype.buildGrid = function () {
    var self = this;
    SUITS.forEach(function (suit) {
      var row = make("div", "grid-row");
      RANKS.forEach(function (rank) {
        var button = cardButton(rank + suit);
        button.addEventListener("click", function () { self.tap(rank + suit); });
        row.appendChild(button);
      });
      self.grid.appendChild(row);
    });
  };

  HandPicker.prototype.read = function () {
    var self = this;
    this.lists = {};
    this.owner = {};
    Object.keys(this.fields).forEach(function (seat) {
      self.lists[seat] = [];
      cardsIn(self.fields[seat].value).forEach(function (card) {
        if (!(card in self.owner) && self.lists[seat].length < self.limit(seat)) {
          self.owner[card] = seat;
          self.lists[seat].push(card);
        }
      });
    });
    if (this.mode === "play" && this.hands().some(function (s) { return !self.lists[s].length; })) {
      this.fillLast();  // three typed hands: the fourth is the rest, as the server reads them
      this.write();
      return;
    }
    this.render();
  };

  HandPicker.prototype.write = function () {
    var self = this;
    this.owner = {};
    Object.keys(this.lists).forEach(function (seat) {
      var cards = seat === "trick" ? self.lists[seat] : sortCards(self.lists[seat]);
      self.lists[seat] = cards;
      cards.forEach(function (card) { self.owner[card] = seat; });
      self.fields[seat].value = cards.join(" ");
    });
    this.render();
    if (this.onWrite) this.onWrite();
  };

  HandPicker.prototype.hands = function () {
    var self = this;
    return this.tabs.map(function (t) { return t.getAttribute("data-seat"); })
      .filter(function (seat) { return seat !== "trick" && self.lists[seat]; });
  };

  HandPicker.prototype.firstOpen = function () {
    var self = this;
    return this.hands().filter(function (seat) { return self.lists[seat].length < 13; })[0] || null;
  };

  HandPicker.prototype.complete = function () {
    var self = this;
    return this.hands().length === 4 && this.hands().every(function (s) { return self.lists[s].length === 13; });
  };

  HandPicker.prototype.empty = function () {
    var self = this;
    return this.hands().every(function (s) { return self.lists[s].length === 0; });
  };

  HandPicker.prototype.choose = function (seat) {
    this.active = seat;
    this.render();
  };

  HandPicker.prototype.tap = function (card) {
    var seat = this.active;
    var list = this.lists[seat];
    if (this.owner[card] === seat) {
      list.splice(list.indexOf(card), 1);
    } else if (!(card in this.owner) && list.length < this.limit(seat)) {
      list.push(card);
    } else {
      return;
    }
    if (seat !== "trick") this.fillLast();
    this.write();
    if (seat !== "trick" && list.length === this.size(seat)) {
      var next = this.nextOpen(seat);
      if (next !== null) this.choose(next);
      else if (this.mode === "position" && this.onPosition) this.onPosition();
    }
    if (this.complete() && this.onComplete) this.onComplete();
  };

  // How many cards a hand is to hold: 13 where the whole deal is entered; in a claim's
  // position, as many as the hands already entered hold (the trick on the table aside).
  HandPicker.prototype.size = function (seat) {
    if (this.mode !== "position") return 13;
    var self = this;
    var sizes = this.hands().filter(function (s) { return s !== seat; })
      .map(function (s) { return self.lists[s].length; });
    return Math.max.apply(null, sizes.concat([0])) || null;
  };

  // The next hand after ``seat`` that is not full yet.
  HandPicker.prototype.nextOpen = function (seat) {
    var seats = this.hands();
    var self = this;
    var size = this.mode === "position" ? this.lists[seat].length : 13;
    for (var i = 1; i < seats.length; i++) {
      var s = seats[(seats.indexOf(seat) + i) % seats.length];
      if (self.lists[s].length < size) return s;
    }
    return null;
  };

  // Three complete hands: the fourth is the rest of the pack.
  HandPicker.prototype.fillLast = function () {
    var self = this;
    var seats = this.hands();
    var open = seats.filter(function (s) { return self.lists[s].length < 13; });
    if (seats.length !== 4 || open.length !== 1) return;
    var given = {};
    seats.concat(this.lists.trick ? ["trick"] : []).forEach(function (seat) {
      if (seat !== open[0]) self.lists[seat].forEach(function (card) { given[card] = true; });
    });
    var rest = [];
    SUITS.forEach(function (suit) {
      RANKS.forEach(function (rank) {
        if (!given[rank + suit]) rest.push(rank + suit);
      });
    });
    this.lists[open[0]] = rest;
  };

  HandPicker.prototype.onLayout = function () {
    var laid = {};
    var ends = {};
    all(this.form, "[data-layout-end]").forEach(function (select) {
      var suit = select.getAttribute("data-suit");
      ends[suit] = ends[suit] || [];
      ends[suit].push(select.value);
    });
    if (this.form.classList.contains("is-trix")) {
      Object.keys(ends).forEach(function (suit) {
        var low = RANKS.indexOf(ends[suit][0]);
        var high = RANKS.indexOf(ends[suit][1]);
        if (low < 0 || high < 0) return;
        for (var i = high; i <= low; i++) laid[RANKS[i] + suit] = true;
      });
    }
    return laid;
  };

  HandPicker.prototype.render = function () {
    var self = this;
    var countText = this.root.getAttribute("data-count-text") || "{n}";
    var saidText = this.root.getAttribute("data-count-said-text") || "{n}";
    var laid = this.onLayout();
    this.tabs.forEach(function (tab) {
      var seat = tab.getAttribute("data-seat");
      var n = (self.lists[seat] || []).length;
      var shown = digits(n);
      tab.setAttribute("aria-pressed", seat === self.active ? "true" : "false");
      tab.classList.toggle("full", seat !== "trick" && n === 13);
      tab.querySelector("[data-count]").textContent =
        self.mode === "position" ? shown : countText.replace("{n}", shown);
      tab.querySelector("[data-count-said]").textContent = " " + saidText.replace("{n}", shown);
    });
    var active = this.lists[this.active] || [];
    var full = active.length >= this.limit(this.active);
    all(this.grid, "[data-card]").forEach(function (button) {
      var card = button.getAttribute("data-card");
      var owner = self.owner[card];
      var mine = owner === self.active;
      var taken = (owner !== undefined && !mine) || laid[card] === true || (full && !mine);
      button.setAttribute("aria-pressed", mine ? "true" : "false");
      button.disabled = taken;
      button.classList.toggle("taken", taken);
    });
  };

  // --- playing the cards: tricks or Trix turns -----------------------------------------------

  function PlayPicker(form, hands, root) {
    this.form = form;
    this.hands = hands;
    this.root = root;
    this.url = hands.root.getAttribute("data-state-url");
    this.errorText = hands.root.getAttribute("data-error-text");
    this.tricks = form.querySelector("[data-picker-field=tricks]");
    this.plays = form.querySelector("[data-picker-field=plays]");
    this.asked = 0;
    var self = this;
    root.querySelector("[data-undo]").addEventListener("click", function () { self.undo(); });
    root.querySelector("[data-pass]").addEventListener("click", function () { self.add("pass"); });
    root.querySelector("[data-to-hands]").addEventListener("click", function () { self.toHands(); });
    hands.root.querySelector("[data-to-play]").addEventListener("click", function () { self.show(true, true); });
    hands.root.querySelector("[data-skip-hands]").addEventListener("click", function () {
      hands.hands().forEach(function (seat) { hands.lists[seat] = []; });
      hands.write();
      self.show(true, true);
    });
    // The hands completed after the tricks: back to the play, where the verdict is.
    hands.onComplete = function () {
      if (self.resume && self.typed()) { self.resume = false; self.show(true, true); }
    };
  }

  PlayPicker.prototype.trix = function () {
    return contractOf(this.form) === "trix";
  };

  PlayPicker.prototype.show = function (playing, moved) {
    this.playing = playing;
    this.root.hidden = !playing;
    this.hands.root.hidden = playing;
    // A tap that switches views brings the new one to the top of the screen (the play's
    // once its cards are drawn: before that the page may be too short to scroll).
    this.scrollPending = !!(moved && playing);
    if (playing) this.refresh();
    if (moved && !playing) this.hands.root.scrollIntoView({ block: "start" });
  };

  // Hands entered after the tricks start from the cards each player was seen to play.
  PlayPicker.prototype.toHands = function () {
    var hands = this.hands;
    var shown = (this.state && this.state.played_by) || [];
    if (hands.empty() && shown.length === 4) {
      hands.hands().forEach(function (seat) { hands.lists[seat] = shown[Number(seat)].slice(); });
      hands.write();
      hands.choose(hands.firstOpen() || hands.active);
      this.resume = true;
    }
    this.show(false, true);
  };

  PlayPicker.prototype.typed = function () {
    var field = this.trix() ? this.plays : this.tricks;
    return !!(field && field.value.trim());
  };

  PlayPicker.prototype.add = function (word) {
    if (this.trix()) {
      this.plays.value = words(this.plays.value).concat([word]).join(" ");
    } else {
      var lines = this.tricks.value.split("\n").filter(function (l) { return l.trim(); });
      var last = lines.length ? words(lines[lines.length - 1]) : [];
      if (!lines.length || last.length >= 4) lines.push(word);
      else lines[lines.length - 1] = last.concat([word]).join(" ");
      this.tricks.value = lines.join("\n");
    }
    this.refresh();
  };

  PlayPicker.prototype.undo = function () {
    if (this.trix()) {
      this.plays.value = words(this.plays.value).slice(0, -1).join(" ");
    } else {
      var lines = this.tricks.value.split("\n").filter(function (l) { return l.trim(); });
      if (lines.length) {
        var last = words(lines.pop()).slice(0, -1);
        if (last.length) lines.push(last.join(" "));
      }
      this.tricks.value = lines.join("\n");
    }
    this.refresh();
  };

  PlayPicker.prototype.refresh = function () {
    var self = this;
    var asked = ++this.asked;
    var query = new URLSearchParams(new FormData(this.form)).toString();
    fetch(this.url + "?" + query, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (state) { if (asked === self.asked) self.render(state); })
      .catch(function () { if (asked === self.asked) self.render({ ok: false, errors: [self.errorText] }); });
  };

  PlayPicker.prototype.render = function (state) {
    var self = this;
    var status = this.root.querySelector("[data-status]");
    var why = this.root.querySelector("[data-why]");
    var grid = this.root.querySelector("[data-hand]");
    var trick = this.root.querySelector("[data-trick]");
    var verdict = this.root.querySelector("[data-verdict]");
    grid.textContent = "";
    trick.textContent = "";
    why.textContent = "";
    verdict.textContent = "";
    status.classList.toggle("error", !state.ok);
    if (!state.ok) {
      status.textContent = (state.errors || []).join(" ");
      return;
    }
    this.state = state;
    status.textContent = state.status;
    (state.trick || []).forEach(function (pair, i) {
      var item = make("li", "", state.trick_players[i] + " ");
      item.appendChild(cardFace(make("span", "card-text" + (isRed(pair[1]) ? " red" : "")), pair[1]));
      trick.appendChild(item);
    });
    this.root.querySelector("[data-layout]").textContent = (state.layout || []).map(function (row, i) {
      return SYMBOL[SUITS[i]] + " " + row;
    }).join("   ");
    var legal = state.legal || [];
    var reasons = state.why || {};
    this.renderHand(grid, state.done ? [] : state.cards || [], legal, reasons);
    var notes = [];
    sortCards(Object.keys(reasons)).forEach(function (card) {
      var text = reasons[card];
      var found = notes.filter(function (n) { return n.text === text; })[0];
      if (found) found.cards.push(label(card));
      else notes.push({ text: text, cards: [label(card)] });
    });
    var lines = notes.map(function (n) { return n.cards.join(" ") + ": " + n.text; });
    if (state.pass_note) lines.push(state.pass_note);
    why.textContent = lines.join("\n");
    if (state.verdict) {
      verdict.classList.toggle("is-bad", !state.verdict.legal);
      verdict.appendChild(make("strong", "", state.verdict.headline));
      verdict.appendChild(make("p", "", state.verdict.ruling));
    }
    this.root.querySelector("[data-pass]").disabled = !!state.done;
    this.root.querySelector("[data-undo]").disabled =
      !(this.trix() ? this.plays.value.trim() : this.tricks.value.trim());
    if (state.done) self.form.querySelector("[name=check]").focus();
    if (this.scrollPending) {
      this.scrollPending = false;
      this.root.scrollIntoView({ block: "start" });
    }
  };

  // The cards the player may play come first (his led suit, say), then the rest, each
  // part by suit: the likely card is under the thumb at the top of the grid.
  PlayPicker.prototype.renderHand = function (grid, cards, legal, reasons) {
    var self = this;
    var trix = this.trix();
    var parts = [true, false].map(function (allowed) {
      return cards.filter(function (c) { return (legal.indexOf(c) >= 0) === allowed; });
    });
    parts.forEach(function (part) { SUITS.forEach(function (suit) {
      var row = make("div", "grid-row");
      part.filter(function (c) { return c[1] === suit; }).forEach(function (card) {
        var button = cardButton(card);
        var allowed = legal.indexOf(card) >= 0;
        if (!allowed && trix) button.disabled = true;  // it cannot be laid: not a play at all
        if (!allowed && !trix) {
          button.classList.add("illegal");  // still tappable: a revoke must be enterable
          if (reasons[card]) button.title = reasons[card];
        }
        button.addEventListener("click", function () { self.add(card); });
        row.appendChild(button);
      });
      if (row.childNodes.length) grid.appendChild(row);
    }); });
  };

  // --- what the claim form chooses for the player ----------------------------------------------
  // Each choice is made for the player until he makes it himself (a change event: setting a
  // value from here sends none), and never over one the server shows made.

  // The contract's own claim ("I take no more tricks" in Collections): most claims are it.
  function presetFollowsContract(form) {
    var box = form.querySelector("[data-presets][data-follow-contract]");
    var score = form.querySelector("[name=min_score]");
    if (!box || !score) return function () {};
    var chosen = false;
    box.addEventListener("change", function () { chosen = true; });
    score.addEventListener("input", function () { chosen = true; });
    return function () {
      if (chosen) return;
      var contract = contractOf(form);
      var own = all(box, "input[name=preset][data-score]").filter(function (radio) {
        return radio.closest("[data-for-contract]").getAttribute("data-for-contract") === contract;
      })[0] || box.querySelector("input[name=preset]:not([data-score])");
      own.checked = true;
      score.value = digits(own.getAttribute("data-score") || "");
    };
  }

  // Who leads: with cards on the table, the one seat the hands' sizes allow (those who played
  // to the trick hold a card fewer, in turn from the leader); else the hand entered first,
  // the hands being entered in turn from the leader.
  function leaderFollowsHands(form, hands) {
    var select = form.querySelector("select[name=leader]");
    if (!select || !hands.fields.trick) return function () {};
    var chosen = !!select.value;
    var first = null;
    select.addEventListener("change", function () { chosen = true; });
    return function () {
      if (hands.empty()) first = null;
      else if (first === null && hands.active !== "trick") first = hands.active;
      if (chosen) return;
      var leader = leaderOfTrick(hands);
      select.value = leader !== null ? leader : first !== null ? first : "";
    };
  }

  function leaderOfTrick(hands) {
    var on = hands.lists.trick.length;
    var seats = hands.hands();
    if (!on || seats.length !== 4) return null;
    var sizes = seats.map(function (s) { return hands.lists[s].length; });
    var most = Math.max.apply(null, sizes);
    var found = seats.filter(function (s, i) {
      for (var k = 0; k < 4; k++) {
        if (sizes[(i + k) % 4] !== (k < on ? most - 1 : most)) return false;
      }
      return true;
    });
    return found.length === 1 ? found[0] : null;
  }

  // --- putting it together -------------------------------------------------------------------

  function setup(form) {
    var root = form.querySelector("[data-picker]");
    if (root && root.hasAttribute("data-card-names")) NAMES = JSON.parse(root.getAttribute("data-card-names"));
    var select = form.querySelector("[data-contract-select]");
    var presetFollows = presetFollowsContract(form);
    function contractChanged() {
      form.classList.toggle("is-trix", contractOf(form) === "trix");
      showForContract(form);
      presetFollows();
    }
    contractChanged();
    if (select) select.addEventListener("change", contractChanged);
    all(form, "input[name=preset][data-score]").forEach(function (radio) {
      radio.addEventListener("change", function () {
        var score = form.querySelector("[name=min_score]");
        if (radio.checked && score) score.value = digits(radio.getAttribute("data-score"));
      });
    });
    if (!root || !window.fetch && root.getAttribute("data-picker") === "play") return;
    var hands = new HandPicker(form, root);
    hands.onWrite = leaderFollowsHands(form, hands);
    // The position entered, the rest of the claim comes up: from its first choice (the
    // leader, prefilled) down to the button that sends it, if the screen holds them.
    hands.onPosition = function () {
      var next = all(form, "fieldset.position").filter(function (f) {
        return !f.classList.contains("off-contract");
      })[0];
      var send = form.querySelector(".actions");
      if (!next || !send) return;
      next.scrollIntoView({ block: "start" });
      var first = next.querySelector("select").getBoundingClientRect().top;
      var over = send.getBoundingClientRect().bottom - window.innerHeight;
      if (over > 0) window.scrollBy(0, Math.min(over, first));
    };
    // A contract chosen before any card: the picker comes up, its grid on the screen.
    if (select && hands.mode === "position") select.addEventListener("change", function () {
      if (hands.empty()) root.scrollIntoView({ block: "start" });
    });
    var playRoot = form.querySelector("[data-play-picker]");
    var play = playRoot ? new PlayPicker(form, hands, playRoot) : null;
    if (select && play) select.addEventListener("change", function () { if (!playRoot.hidden) play.refresh(); });
    var switcher = form.querySelector("[data-picker-switch]");
    var toggle = switcher.querySelector("[data-typing]");
    if (play) play.playing = hands.complete() || (hands.empty() && play.typed());
    function picking(on) {
      form.classList.toggle("picking", on);
      toggle.textContent = toggle.getAttribute(on ? "data-type-text" : "data-tap-text");
      if (!on) {
        root.hidden = true;
        if (playRoot) playRoot.hidden = true;
        return;
      }
      hands.read();
      if (play) play.show(play.playing);
      else root.hidden = false;
    }
    toggle.addEventListener("click", function () { picking(!form.classList.contains("picking")); });
    switcher.hidden = false;
    picking(true);
  }

  document.addEventListener("DOMContentLoaded", function () {
    all(document, "form[data-dispute-form]").forEach(setup);
  });
})();
