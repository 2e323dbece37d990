// scorekeeper: small conveniences on top of pages that work without JavaScript.
// Every visible text comes from the page (data-* attributes), ready for translation;
// numbers follow the page's digits setting (<html data-digits="latn|arab">).
"use strict";

(function () {
  function all(root, selector) {
    return Array.prototype.slice.call(root.querySelectorAll(selector));
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
    all(document, "form[data-presets]").forEach(setupNewGame);
  });
})();
