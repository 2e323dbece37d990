// scorekeeper: live pages of a club night, polled every 3 s (If-None-Match: an unchanged
// night costs a bodiless 304).
// - The standings board (data-board-url): its content is replaced when a deal is
//   recorded at any table; each panel (find your seat, standings, the round's tables) is
//   laid out in columns that fit the screen and paged, and the board turns through the
//   pages; the round clock counts down in the server's time. No controls.
// - The director's page (data-live-parts-url): each part ([data-live-part]) is replaced
//   by its fresh copy unless the director is typing or focused in it, or has a form
//   open in it (then it waits for the next poll), so nothing typed is lost.
// Every text comes from the page (data-*).
"use strict";

(function () {
  var INTERVAL = 3000;
  var MAX_DELAY = 30000;
  var TICK = 1000;

  function all(root, selector) {
    return Array.prototype.slice.call(root.querySelectorAll(selector));
  }

  // Digits as the page shows them (<html data-digits="latn|arab">).
  function digits(text) {
    if (document.documentElement.getAttribute("data-digits") !== "arab") return String(text);
    return String(text).replace(/[0-9]/g, function (d) { return String.fromCharCode(0x0660 + Number(d)); });
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (whole, name) {
      return name in values ? values[name] : whole;
    });
  }

  function poller(url, version, onFresh, onState) {
    var failures = 0;
    var state = { version: version };
    function poll() {
      fetch(url, { headers: { "If-None-Match": '"' + state.version + '"' }, cache: "no-store" })
        .then(function (response) {
          if (response.status === 304) return null;
          if (!response.ok) throw new Error("HTTP " + response.status);
          var tag = (response.headers.get("ETag") || "").replace(/^W\//, "").replace(/"/g, "");
          return response.text().then(function (html) { return { html: html, version: tag }; });
        })
        .then(function (fresh) {
          failures = 0;
          onState(true);
          // onFresh answers false when it could not take everything: ask again next time.
          if (fresh && onFresh(fresh.html) !== false) state.version = fresh.version;
        })
        .catch(function () {
          failures += 1;
          onState(false);
        })
        .then(function () {
          var delay = failures ? Math.min(MAX_DELAY, INTERVAL * Math.pow(2, failures)) : INTERVAL;
          setTimeout(poll, delay);
        });
    }
    setTimeout(poll, INTERVAL);
    return state;
  }

  // --- the board --------------------------------------------------------------------------

  function Board(box) {
    this.box = box;
    this.content = box.querySelector("[data-board-content]");
    this.offline = box.querySelector("[data-board-offline]");
    this.rotate = 1000 * Number(box.getAttribute("data-rotate-seconds") || 12);
    // The server's clock minus this one's, so the round clock is the same on every screen.
    this.offset = Number(box.getAttribute("data-server-now") || Date.now()) - Date.now();
    this.screens = [];
    this.at = 0;
  }

  Board.prototype.now = function () { return Date.now() + this.offset; };

  // Rows that fit in the screen's height left under the headline and the panel's title.
  Board.prototype.rowsFitting = function (panel, itemHeight, headHeight) {
    var head = this.content.querySelector(".board-head");
    var title = panel.querySelector("h2");
    var room = window.innerHeight - (head ? head.offsetHeight : 0) - (title ? title.offsetHeight : 0) - 32;
    return Math.max(1, Math.floor((room - headHeight) / Math.max(1, itemHeight)));
  };

  function chunks(items, size) {
    var out = [];
    for (var i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
    return out.length ? out : [[]];
  }

  // The standings: one table per column, each with the header, as many rows as fit.
  Board.prototype.layoutRows = function (panel) {
    var holder = panel.querySelector("[data-board-rows]");
    var source = holder.querySelector("table");
    var rows = all(source, "tbody tr");
    var em = parseFloat(getComputedStyle(panel).fontSize) || 16;
    source.hidden = false;
    var width = this.content.clientWidth;
    var gap = 1.5 * em;
    var columns = Math.max(1, Math.floor((width + gap) / (em * 22 + gap)));
    // Measured at the width of one column, where long lines wrap as they will be shown.
    source.style.width = ((width + gap) / columns - gap) + "px";
    var rowHeight = rows.reduce(function (h, row) { return Math.max(h, row.offsetHeight); }, em);
    var grid = {
      rows: this.rowsFitting(panel, rowHeight, source.tHead ? source.tHead.offsetHeight : 0),
      columns: columns
    };
    source.style.width = "";
    source.hidden = true;
    var perColumn = grid.rows;
    var columns = Math.min(grid.columns, Math.max(1, Math.ceil(rows.length / perColumn)));
    var pages = chunks(rows, perColumn * columns);
    return pages.map(function (pageRows) {
      return function () {
        var view = document.createElement("div");
        view.className = "board-columns";
        view.style.setProperty("--board-columns", columns);
        chunks(pageRows, perColumn).forEach(function (columnRows) {
          var table = source.cloneNode(false);
          table.hidden = false;
          table.removeAttribute("data-testid");
          table.setAttribute("data-testid", "board-standings-column");
          if (source.tHead) table.appendChild(source.tHead.cloneNode(true));
          var body = document.createElement("tbody");
          columnRows.forEach(function (row) { body.appendChild(row.cloneNode(true)); });
          table.appendChild(body);
          view.appendChild(table);
        });
        return view;
      };
    });
  };

  // Cards (the round's tables) or lines (find your seat): a grid of as many as fit.
  Board.prototype.layoutItems = function (panel) {
    var source = panel.querySelector("[data-board-items]");
    if (!source) return [];  // nothing to show (no tie to explain): no screen
    var items = all(source, ":scope > *");
    source.hidden = false;
    var tallest = items.reduce(function (h, item) { return Math.max(h, item.offsetHeight); }, 0);
    var style = getComputedStyle(source);
    var gap = parseFloat(style.rowGap) || 0;
    var extra = all(panel, ":scope > p").reduce(function (h, p) { return h + p.offsetHeight; }, 0);
    // The grid's own auto-fill says how many columns fit; its tracks are resolved to px.
    var tracks = style.gridTemplateColumns.split(" ").filter(Boolean).length;
    var grid = { rows: this.rowsFitting(panel, tallest + gap, extra), columns: Math.max(1, tracks) };
    source.hidden = true;
    var pages = chunks(items, grid.rows * grid.columns);
    return pages.map(function (pageItems) {
      return function () {
        var view = source.cloneNode(false);
        view.hidden = false;
        view.removeAttribute("data-board-items");
        view.style.setProperty("--board-columns", grid.columns);
        view.classList.add("board-paged");
        pageItems.forEach(function (item) { view.appendChild(item.cloneNode(true)); });
        return view;
      };
    });
  };

  // Every panel's pages, in order: the screens the board turns through.
  Board.prototype.layout = function () {
    var self = this;
    var screens = [];
    all(this.content, "[data-board-panel]").forEach(function (panel) {
      all(panel, "[data-board-view]").forEach(function (old) { old.remove(); });
      panel.hidden = false;
      var pages = panel.querySelector("[data-board-rows]") ? self.layoutRows(panel) : self.layoutItems(panel);
      panel.hidden = !pages.length;
      pages.forEach(function (make, index) {
        screens.push({ panel: panel, make: make, page: index + 1, pages: pages.length });
      });
    });
    this.screens = screens;
    if (this.at >= screens.length) this.at = 0;
    this.show();
  };

  Board.prototype.show = function () {
    var screen = this.screens[this.at];
    all(this.content, "[data-board-panel]").forEach(function (panel) {
      panel.hidden = !screen || panel !== screen.panel;
      all(panel, "[data-board-view]").forEach(function (old) { old.remove(); });
    });
    var label = this.content.querySelector("[data-board-page]");
    if (!screen) return;
    var view = screen.make();
    view.setAttribute("data-board-view", "");
    screen.panel.appendChild(view);
    if (label) {
      label.hidden = this.screens.length < 2;
      label.textContent = fill(label.getAttribute("data-page-text"), {
        what: screen.panel.getAttribute("data-panel-title") || "",
        n: digits(screen.page),
        count: digits(screen.pages)
      });
    }
  };

  Board.prototype.turn = function () {
    if (this.screens.length < 2) return;
    this.at = (this.at + 1) % this.screens.length;
    this.show();
  };

  // The round clock: minutes and seconds left, a warning near the end, then time is up.
  Board.prototype.tick = function () {
    var clock = this.content.querySelector("[data-board-clock]");
    if (!clock) return;
    var left = Math.ceil((Number(clock.getAttribute("data-ends")) - this.now()) / 1000);
    var warn = Number(clock.getAttribute("data-warn") || 300);
    var time = clock.querySelector("[data-clock-time]");
    var note = clock.querySelector("[data-clock-note]");
    var shown = Math.max(0, left);
    var text = digits(Math.floor(shown / 60)) + ":" + digits(("0" + (shown % 60)).slice(-2));
    time.textContent = text;
    var state = left <= 0 ? "over" : left <= warn ? "warning" : "running";
    clock.setAttribute("data-state", state);
    var template = clock.getAttribute("data-" + (state === "over" ? "over" : state === "warning" ? "warn" : "left") + "-text");
    note.textContent = fill(template, { time: text });
    this.box.setAttribute("data-clock-state", state);
  };

  Board.prototype.refresh = function (html) {
    var panel = this.screens[this.at] && this.screens[this.at].panel.getAttribute("data-board-panel");
    this.content.innerHTML = html;
    this.layout();
    // Stay on the same panel when it is still there.
    for (var i = 0; i < this.screens.length; i += 1) {
      if (this.screens[i].panel.getAttribute("data-board-panel") === panel) { this.at = i; break; }
    }
    this.show();
    this.tick();
  };

  function startBoard(box) {
    var board = new Board(box);
    window.scorekeeperBoard = board;
    board.layout();
    board.tick();
    setInterval(function () { board.tick(); }, TICK);
    setInterval(function () { board.turn(); }, board.rotate);
    var resized = null;
    window.addEventListener("resize", function () {
      clearTimeout(resized);
      resized = setTimeout(function () { board.layout(); }, 200);
    });
    var state = poller(box.getAttribute("data-board-url"), box.getAttribute("data-version"),
      function (html) {
        board.refresh(html);
        box.setAttribute("data-version", state.version);
      },
      function (ok) { board.offline.hidden = ok; });
  }

  // --- the director's page ----------------------------------------------------------------

  // What the director typed or chose and has not sent.
  function changed(field) {
    if (field.type === "hidden") return false;
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") {
      return all(field, "option").some(function (o) { return o.selected !== o.defaultSelected; }) &&
        field.selectedIndex !== Math.max(0, all(field, "option").findIndex(function (o) { return o.defaultSelected; }));
    }
    return field.value !== field.defaultValue;
  }

  // Typed in, focused in, or a question asked in it: the part waits.
  function busy(part) {
    var active = document.activeElement;
    if (active && active !== document.body && part.contains(active) && active.form) return true;
    if (part.querySelector("[data-testid=confirm-box], details[open] form")) return true;
    return all(part, "input, textarea, select").some(changed);
  }

  function startParts(box) {
    var offline = box.querySelector("[data-live-offline]");
    poller(box.getAttribute("data-live-parts-url"), box.getAttribute("data-version"),
      function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var complete = true;
        all(fresh, "[data-live-part]").forEach(function (part) {
          var key = part.getAttribute("data-live-part");
          var here = box.querySelector('[data-live-part="' + key + '"]');
          if (!here) return;
          if (busy(here)) { complete = false; return; }
          here.replaceWith(document.importNode(part, true));
        });
        if (window.scorekeeperLocalTimes) window.scorekeeperLocalTimes(box);
        return complete;
      },
      function (ok) { if (offline) offline.hidden = ok; });
  }

  // The new-night page: choosing a circle shows its members to tick (the form's own
  // "Show its members" button, which works without JavaScript too).
  function circleChoice(select) {
    select.addEventListener("change", function () {
      var show = select.form && select.form.querySelector("[data-testid=show-members]");
      if (show && select.value) show.click();
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    all(document, "select[data-circle-choice]").forEach(circleChoice);
    var box = document.querySelector("[data-board-url]");
    if (box) startBoard(box);
    var parts = document.querySelector("[data-live-parts-url]");
    if (parts) startParts(parts);
  });
})();
