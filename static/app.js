// scorekeeper: small conveniences on top of pages that work without JavaScript.
// Every visible text comes from the page (data-* attributes), ready for translation;
// numbers follow the page's digits setting (<html data-digits="latn|arab">).
"use strict";

(function () {
  var ARABIC_INDIC = "٠١٢٣٤٥٦٧٨٩";

  function all(root, selector) {
    return Array.prototype.slice.call(root.querySelectorAll(selector));
  }

  // A number in the page's digits: "12" or "١٢".
  function digits(n) {
    var text = String(n);
    if (document.documentElement.getAttribute("data-digits") !== "arab") return text;
    return text.replace(/[0-9]/g, function (d) { return ARABIC_INDIC[Number(d)]; });
  }

  // Diamonds / tricks: − and + steppers, the live sum ("12 of 13"), and the
  // last box filling itself once the other three are known.
  function setupCounts(box) {
    var total = Number(box.getAttribute("data-counts")) || 13;
    var inputs = all(box, "input[type=number]");
    var sum = box.querySelector(".sum");
    inputs.forEach(function (input) {
      if (input.value !== "") input.setAttribute("data-typed", "1");
    });
    function value(input) {
      var n = parseInt(input.value, 10);
      return isNaN(n) ? 0 : n;
    }
    function update(changed) {
      if (changed) changed.setAttribute("data-typed", "1");
      var open = inputs.filter(function (i) { return !i.hasAttribute("data-typed"); });
      if (open.length === 1) {
        var rest = inputs.reduce(function (acc, i) { return i === open[0] ? acc : acc + value(i); }, 0);
        open[0].value = rest <= total ? String(total - rest) : "";
      }
      var n = inputs.reduce(function (acc, i) { return acc + value(i); }, 0);
      sum.textContent = sum.getAttribute("data-sum-text").replace("{n}", digits(n));
      sum.className = "sum " + (n === total ? "ok" : "bad");
      sum.hidden = false;
    }
    all(box, ".step").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        var input = button.parentNode.querySelector("input");
        var next = value(input) + Number(button.getAttribute("data-step"));
        input.value = String(Math.max(0, Math.min(total, next)));
        update(input);
      });
    });
    inputs.forEach(function (input) {
      input.addEventListener("input", function () { update(input); });
      input.addEventListener("focus", function () { input.select(); });
    });
    update(null);
  }

  // Trix: tap the players in the order they went out; the four selects follow.
  function setupTrix(box) {
    var selects = all(box, "select");
    var buttons = all(box, "button[data-seat]");
    box.querySelector(".trix-tap").hidden = false;
    function refresh() {
      buttons.forEach(function (button) {
        var seat = button.getAttribute("data-seat");
        var place = selects.findIndex(function (s) { return s.value === seat; });
        button.querySelector(".place").textContent = place < 0 ? "" : digits(place + 1);
        button.setAttribute("aria-pressed", place < 0 ? "false" : "true");
      });
    }
    buttons.forEach(function (button) {
      button.addEventListener("click", function () {
        var seat = button.getAttribute("data-seat");
        if (selects.some(function (s) { return s.value === seat; })) return;
        var free = selects.filter(function (s) { return s.value === ""; })[0];
        if (free) free.value = seat;
        var left = selects.filter(function (s) { return s.value === ""; });
        if (left.length === 1) {  // the last player is whoever is left
          var rest = buttons.map(function (b) { return b.getAttribute("data-seat"); })
            .filter(function (s) { return !selects.some(function (x) { return x.value === s; }); });
          if (rest.length === 1) left[0].value = rest[0];
        }
        refresh();
      });
    });
    box.querySelector("[data-trix-undo]").addEventListener("click", function () {
      var filled = selects.filter(function (s) { return s.value !== ""; });
      if (filled.length) filled[filled.length - 1].value = "";
      refresh();
    });
    selects.forEach(function (s) { s.addEventListener("change", refresh); });
    refresh();
  }

  // New game: a preset fills in every switch; typed names label the seats.
  function setupNewGame(form) {
    var presets = JSON.parse(form.getAttribute("data-presets") || "{}");
    // Team kingdoms only mean something with partners (R9.5): their controls show with them,
    // and stay shown while they carry an error to fix.
    function partnership() {
      var select = form.querySelector("select[data-switch=partnership]");
      if (select && select.value) return select.value === "on";
      var preset = form.querySelector("input[name=preset]:checked");
      return (presets[preset ? preset.value : "standard"] || {}).partnership === "on";
    }
    function showTeamRules() {
      var on = partnership();
      all(form, "[data-needs=partnership]").forEach(function (field) {
        field.hidden = !on && !field.classList.contains("invalid");
      });
    }
    all(form, "input[name=preset]").forEach(function (radio) {
      radio.addEventListener("change", function () {
        var values = presets[radio.value] || {};
        all(form, "select[data-switch]").forEach(function (select) {
          var name = select.getAttribute("data-switch");
          if (name in values) select.value = values[name];
        });
        showTeamRules();
      });
    });
    var partners = form.querySelector("select[data-switch=partnership]");
    if (partners) partners.addEventListener("change", showTeamRules);
    showTeamRules();
    all(form, "input[name^=players-]").forEach(function (input) {
      function relabel() {
        all(form, '[data-name-of="' + input.name + '"]').forEach(function (label) {
          if (!label.hasAttribute("data-default")) label.setAttribute("data-default", label.textContent);
          label.textContent = input.value.trim() || label.getAttribute("data-default");
        });
      }
      input.addEventListener("input", relabel);
      if (input.value) relabel();
    });
  }

  // Times are sent in UTC (readable without JavaScript); shown here in the phone's own
  // time zone, in the page's language and digits.
  function localTimes(root) {
    if (!window.Intl || !Intl.DateTimeFormat) return;
    var html = document.documentElement;
    var format;
    try {
      format = new Intl.DateTimeFormat(html.lang || undefined, {
        dateStyle: "medium", timeStyle: "short",
        numberingSystem: html.getAttribute("data-digits") === "arab" ? "arab" : "latn"
      });
    } catch (e) { return; }
    all(root, "time[data-local-time]").forEach(function (time) {
      var moment = new Date(time.getAttribute("datetime"));
      if (isNaN(moment.getTime())) return;
      time.textContent = format.format(moment);
      time.setAttribute("dir", "auto");
      time.removeAttribute("data-local-time");
    });
  }
  window.scorekeeperLocalTimes = localTimes;

  document.addEventListener("DOMContentLoaded", function () {
    localTimes(document);
    all(document, "[data-counts]").forEach(setupCounts);
    all(document, "[data-trix]").forEach(setupTrix);
    all(document, "form[data-presets]").forEach(setupNewGame);
  });
})();
