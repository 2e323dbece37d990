// scorekeeper: small conveniences on top of pages that work without JavaScript.
// Every visible text comes from the page (data-* attributes), ready for translation;
// numbers follow the page's digits setting (<html data-digits="latn|arab">).
"use strict";

(function () {
  function all(root, selector) {
    return Array.prototype.slice.call(root.querySelectorAll(selector));
  }

  // Numbers as people type them: Latin 0-9, Arabic-Indic ٠-٩ (U+0660-0669) and Eastern
  // Arabic-Indic ۰-۹ (U+06F0-06F9, Persian and Urdu keyboards) read the same; the Arabic
  // decimal separator ٫ is a point and a real minus sign a minus. The server reads them the
  // same way (text/locale.latin_digits).
  function latinDigits(text) {
    return String(text).replace(/[\u0660-\u0669\u06f0-\u06f9\u066b\u2212]/g, function (c) {
      var code = c.charCodeAt(0);
      if (code === 0x66b) return ".";
      if (code === 0x2212) return "-";
      return String(code - (code >= 0x6f0 ? 0x6f0 : 0x660));
    });
  }

  // Latin digits in the page's digits setting (<html data-digits="latn|arab">).
  function pageDigits(text) {
    text = String(text);
    if (document.documentElement.getAttribute("data-digits") !== "arab") return text;
    return text.replace(/[0-9]/g, function (d) { return "٠١٢٣٤٥٦٧٨٩".charAt(Number(d)); });
  }

  // A whole number typed in any of those digits, or NaN.
  function readNumber(text) {
    var latin = latinDigits(text).trim();
    return /^[-+]?[0-9]+$/.test(latin) ? parseInt(latin, 10) : NaN;
  }
  window.scorekeeperNumbers = { latin: latinDigits, shown: pageDigits, read: readNumber };

  // Number boxes (<input data-number>, text with a numeric keyboard, since a type=number box
  // refuses ٥ in Chromium) show their digits as the page does, whichever were typed, and
  // send Latin digits (the formdata event: a plain submit and a script's new FormData alike).
  function setupNumberBoxes(root) {
    all(root, "input[data-number]").forEach(function (input) {
      function show() {
        var wanted = pageDigits(latinDigits(input.value));
        if (wanted !== input.value) input.value = wanted;
      }
      input.addEventListener("input", show);
      show();
    });
  }
  document.addEventListener("formdata", function (event) {
    all(event.target, "input[data-number]").forEach(function (input) {
      if (input.name && !input.disabled) event.formData.set(input.name, latinDigits(input.value));
    });
  });

  function visible(node) {
    return Boolean(node.offsetWidth || node.offsetHeight || node.getClientRects().length);
  }

  // A page shown again with errors: the first field marked wrong comes into view (clear of the
  // sticky Save bar: app.css gives marked fields a scroll margin) and takes the focus, so the
  // error beside it is read first. A marked field the page keeps hidden (Trix's selects under
  // the taps) hands over to the group that holds it.
  function showFirstError() {
    if (!document.querySelector("[data-testid=error-summary]")) return;
    var field = all(document, "main [aria-invalid=true]").filter(visible)[0];
    var group = field ? null : all(document, "main .invalid").filter(visible)[0];
    if (group) {
      field = all(group, "input:not([type=hidden]), select, textarea").filter(visible)[0];
    }
    var marked = field || group;
    if (!marked) return;
    marked.scrollIntoView({ block: "center" });
    if (field) field.focus({ preventScroll: true });
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

  // A name cut short with an ellipsis (app.css: boxes too narrow for a word) keeps the whole
  // name in its title and shows it on a tap, above the name, for a few seconds.
  var CUT_NAMES = ".total-name, .sheet thead th bdi, .four .choice bdi, .card-grid thead th bdi, " +
    ".count-row label bdi, .played tbody th bdi";
  function markCutNames() {
    all(document, CUT_NAMES).forEach(function (el) {
      var cut = el.scrollWidth > el.clientWidth + 1;
      el.classList.toggle("name-cut", cut);
      if (cut) {
        el.title = el.textContent.trim();
        el.setAttribute("data-cut", "");
      } else if (el.hasAttribute("data-cut")) {
        el.removeAttribute("title");
        el.removeAttribute("data-cut");
      }
    });
  }
  var tip = null, tipTimer = null;
  function showName(el) {
    if (!tip) {
      tip = document.createElement("div");
      tip.className = "name-tip";
      tip.setAttribute("role", "status");
      tip.setAttribute("data-testid", "name-tip");
      document.body.appendChild(tip);
    }
    tip.textContent = el.title || el.textContent.trim();
    tip.dir = "auto";
    tip.hidden = false;
    var box = el.getBoundingClientRect();
    var width = tip.offsetWidth;
    var left = Math.max(8, Math.min(window.innerWidth - width - 8, box.left + box.width / 2 - width / 2));
    tip.style.left = left + "px";
    tip.style.top = Math.max(8, box.top - tip.offsetHeight - 6) + "px";
    clearTimeout(tipTimer);
    tipTimer = setTimeout(function () { tip.hidden = true; }, 3000);
  }
  document.addEventListener("click", function (event) {
    var cut = event.target.closest && event.target.closest(".name-cut");
    if (!cut) {
      var inside = event.target.closest && event.target.closest("button, .choice");
      cut = inside && inside.querySelector(".name-cut");
    }
    if (cut) showName(cut);
  });
  function watchCutNames() {
    markCutNames();
    var pending = false;
    function later() {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () { pending = false; markCutNames(); });
    }
    window.addEventListener("resize", later);
    var main = document.querySelector("main");
    if (main && window.MutationObserver) {
      new MutationObserver(later).observe(main, { childList: true, subtree: true, characterData: true });
    }
  }

  // Installing: where the browser offers it (beforeinstallprompt: Chromium), a button does it
  // and the menu instructions step aside; once installed, both go.
  var installPrompt = null;
  function installButton() { return document.querySelector("[data-install]"); }
  window.addEventListener("beforeinstallprompt", function (event) {
    event.preventDefault();  // our button instead of the browser's own banner
    installPrompt = event;
    var button = installButton();
    var how = document.querySelector("[data-install-how]");
    if (button) button.hidden = false;
    if (how) how.hidden = true;
  });
  window.addEventListener("appinstalled", function () {
    installPrompt = null;
    var box = document.querySelector("[data-testid=install]");
    if (box) box.hidden = true;
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-install]");
    if (!button || !installPrompt) return;
    installPrompt.prompt();
    installPrompt.userChoice.then(function (choice) {
      if (choice && choice.outcome === "accepted") button.hidden = true;
    }, function () {});
    installPrompt = null;
  });

  // Help: its parts open on a tap (<details>); a link to one (#r3, #offline), from the table
  // of contents or another page, opens the part that holds it.
  function openLinkedPart() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    var part = target && target.closest("details");
    if (!part) return;
    part.open = true;
    target.scrollIntoView({ block: "start" });
  }
  window.addEventListener("hashchange", openLinkedPart);

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
    setupNumberBoxes(document);
    setTimeout(showFirstError, 0);  // after every page script has set up its form
    watchCutNames();
    openLinkedPart();
  });
})();
