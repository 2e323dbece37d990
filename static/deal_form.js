// scorekeeper: the deal form's conveniences (templates/deals/_entry.html). The form works
// without them: the server checks every count and order and says what is wrong.
// Every visible text comes from the page (data-* attributes), ready for translation;
// numbers follow the page's digits setting (<html data-digits="latn|arab">).
"use strict";

(function () {
  var ARABIC_INDIC = "٠١٢٣٤٥٦٧٨٩";

  function all(root, selector) {
    return Array.prototype.slice.call(root.querySelectorAll(selector));
  }

  // A number in the page's digits: "12" or "١٢" (app.js: scorekeeperNumbers).
  function digits(n) {
    var numbers = window.scorekeeperNumbers;
    return numbers ? numbers.shown(String(n)) : String(n);
  }

  // A count box's number, typed in Latin, Arabic-Indic or Eastern Arabic-Indic digits.
  function value(input) {
    var numbers = window.scorekeeperNumbers;
    var n = numbers ? numbers.read(input.value) : parseInt(input.value, 10);
    return isNaN(n) ? 0 : n;  // a blank box counts as 0
  }
  function isZero(input) { return input.value !== "" && value(input) === 0 && input.value.trim().length === 1; }

  // Save waits until every count adds up to 13 and all four players of Trix are placed,
  // and says why it waits.
  function gate(form) {
    var save = form.querySelector("[data-testid=save-deal]");
    var reason = form.querySelector("[data-save-reason]");
    if (!save || !reason) return;
    var wrong = all(form, "[data-counts], [data-trix]").filter(function (box) {
      return box.countSum !== box.countTotal;
    })[0];
    save.disabled = Boolean(wrong);
    save.setAttribute("aria-disabled", wrong ? "true" : "false");
    reason.hidden = !wrong;
    reason.textContent = wrong
      ? wrong.getAttribute("data-wrong-text").replace("{n}", digits(wrong.countSum)) : "";
  }

  // Diamonds / tricks: the live sum ("12 of 13"), the last box filling itself once the
  // other three are set, steppers, "all 13 to one player", and the cursor moving on to the
  // next box as soon as a count cannot grow another digit.
  function setupCounts(box, form) {
    var total = Number(box.getAttribute("data-counts")) || 13;
    var inputs = all(box, "input[data-number]");
    var sum = box.querySelector(".sum");
    box.countTotal = total;
    inputs.forEach(function (input) {
      if (input.value !== "") input.setAttribute("data-typed", "1");
    });
    // An Edit form (or one shown again) opens with every box set: a box typed over there
    // may grow to 13, the others being changed after it.
    var prefilled = untyped().length === 0;
    function untyped() {
      return inputs.filter(function (i) { return !i.hasAttribute("data-typed"); });
    }
    function update(changed) {
      if (changed) changed.setAttribute("data-typed", "1");
      var open = untyped();
      if (open.length === 1) {
        var rest = inputs.reduce(function (acc, i) { return i === open[0] ? acc : acc + value(i); }, 0);
        open[0].value = rest <= total ? digits(total - rest) : "";
      }
      var n = inputs.reduce(function (acc, i) { return acc + value(i); }, 0);
      box.countSum = n;
      sum.textContent = sum.getAttribute("data-sum-text").replace("{n}", digits(n));
      sum.className = "sum " + (n === total ? "ok" : "bad");
      sum.hidden = false;
      gate(form);
    }
    // A count is complete once another digit could not fit in what is left: the other
    // boxes the player typed, never the one that filled itself (it follows this one).
    function complete(input) {
      var n = value(input);
      var others = prefilled ? 0 : inputs.reduce(function (acc, i) {
        return i === input || !i.hasAttribute("data-typed") ? acc : acc + value(i);
      }, 0);
      return input.value.trim().length >= 2 || isZero(input) || n * 10 > total - others;
    }
    function advance(input) {
      if (prefilled) {  // on through the boxes in order, the last one let go
        var next = inputs[inputs.indexOf(input) + 1];
        if (next) next.focus(); else input.blur();
        return;
      }
      var open = untyped();
      if (open.length <= 1) { input.blur(); return; }  // the last box fills itself
      var later = open.filter(function (i) { return inputs.indexOf(i) > inputs.indexOf(input); });
      (later[0] || open[0]).focus();
    }
    all(box, ".step[data-step]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        var input = button.parentNode.querySelector("input");
        var next = value(input) + Number(button.getAttribute("data-step"));
        input.value = digits(Math.max(0, Math.min(total, next)));
        update(input);
      });
    });
    all(box, "[data-all]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        var mine = button.parentNode.querySelector("input");
        inputs.forEach(function (i) {
          i.value = digits(i === mine ? total : 0);
          i.setAttribute("data-typed", "1");
        });
        update(null);
      });
    });
    inputs.forEach(function (input) {
      input.addEventListener("input", function () {
        update(input);
        if (input.value !== "" && complete(input)) advance(input);
      });
      input.addEventListener("focus", function () { input.select(); });
    });
    update(null);
  }

  // Trix: tap the players in the order they went out; the four selects follow (hidden
  // while the taps are there, unless one of them carries an error to fix, so that what
  // the summary asks to fix is always in sight). Save waits for all four.
  function setupTrix(box, form) {
    var selects = all(box, "select");
    var buttons = all(box, "button[data-seat]");
    box.querySelector(".trix-tap").hidden = false;
    var marked = box.classList.contains("invalid") || box.querySelector(".trix-selects .errors, .trix-selects [aria-invalid=true]");
    if (!marked) box.querySelector(".trix-selects").hidden = true;
    box.countTotal = selects.length;
    function refresh() {
      var placed = selects.map(function (s) { return s.value; })
        .filter(function (v, i, values) { return v !== "" && values.indexOf(v) === i; });
      box.countSum = placed.length;
      gate(form);
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

  // A card's "doubled" toggle, switched off, forgets its holder (CSS hides the holder's row).
  function setupToggles(row) {
    var toggle = row.querySelector("input[type=checkbox]");
    if (!toggle) return;
    toggle.addEventListener("change", function () {
      if (toggle.checked) return;
      all(row, ".holder input").forEach(function (radio) { radio.checked = false; });
    });
  }

  // The phone's clock at Save, with its UTC offset: "2026-12-03T21:42:05+03:00".
  function localTime(d) {
    function two(n) { return (n < 10 ? "0" : "") + n; }
    var offset = -d.getTimezoneOffset();
    var sign = offset < 0 ? "-" : "+";
    offset = Math.abs(offset);
    return d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate()) + "T" +
      two(d.getHours()) + ":" + two(d.getMinutes()) + ":" + two(d.getSeconds()) +
      sign + two(Math.floor(offset / 60)) + ":" + two(offset % 60);
  }

  // A deal keeps the time it was played: set at the first Save (capture phase, before any
  // other script reads the form), kept when the same entry is sent again later.
  function stampPlayed(form) {
    var played = form && form.querySelector && form.querySelector("[data-played-at]");
    if (played && !played.value) played.value = localTime(new Date());
    return played;
  }
  // Shared with the offline scripts (an entry queued on the phone keeps the same time).
  window.SKPlayed = { localTime: localTime, stamp: stampPlayed };
  document.addEventListener("submit", function (event) { stampPlayed(event.target); }, true);
  // A script that reads the form itself (new FormData(form)) gets the time too.
  document.addEventListener("formdata", function (event) {
    var played = stampPlayed(event.target);
    if (played) event.formData.set(played.name, played.value);
  }, true);

  document.addEventListener("DOMContentLoaded", function () {
    all(document, "form.deal-form").forEach(function (form) {
      all(form, "[data-counts]").forEach(function (box) { setupCounts(box, form); });
      all(form, "[data-trix]").forEach(function (box) { setupTrix(box, form); });
      all(form, ".card-row").forEach(setupToggles);
    });
  });
})();
