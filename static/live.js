// scorekeeper: live updates. A page showing a game listens to its event stream
// (server-sent events: each new version as soon as it is recorded) while visible.
// Where there is no stream (no EventSource, or the server has no stream to spare:
// a 503) it polls the version every 1.5 s instead (If-None-Match: an unchanged
// game costs a bodiless 304), and tries the stream again a minute later.
// When another phone changes the game:
//  - on the game page ("swap"), each [data-live-region] is replaced by the
//    fresh page's, unless the user is busy with a form inside it;
//  - on a deal form ("banner"), nothing typed is touched: a banner says what
//    changed; saving then meets the stale-version check and keeps the input.
// Errors and offline back off (up to 30 s) and show a small notice.
// Every visible text comes from the page (data-* attributes).
"use strict";

(function () {
  var INTERVAL = 1500;
  var MAX_DELAY = 30000;
  var STREAM_AGAIN = 60000;  // after a refused stream, polls until then
  var QUIET_DROP = 3000;  // a stream reconnecting within this is not "offline"

  function all(root, selector) {
    return Array.prototype.slice.call(root.querySelectorAll(selector));
  }

  // Forms the user has typed into (or is focused in) must not be replaced.
  function busy(region) {
    var active = document.activeElement;
    if (active && active !== document.body && region.contains(active) && active.form) return true;
    if (all(region, "details[open] form").length) return true;
    return all(region, "form").some(function (form) { return form.hasAttribute("data-dirty"); });
  }

  function markDirty(event) {
    var form = event.target && event.target.form;
    if (form) form.setAttribute("data-dirty", "1");
  }

  function Live(box) {
    this.box = box;
    this.url = box.getAttribute("data-live-url");
    this.version = box.getAttribute("data-version");
    this.mode = box.getAttribute("data-live-mode") || "banner";
    this.banner = box.querySelector("[data-live-banner]");
    this.offline = box.querySelector("[data-live-offline]");
    this.streamUrl = box.getAttribute("data-stream-url");
    this.source = null;
    this.streamTimer = null;
    this.dropTimer = null;
    this.failures = 0;
    this.timer = null;
    this.inFlight = false;
    this.changes = [];
  }

  Live.prototype.schedule = function (delay) {
    var self = this;
    clearTimeout(this.timer);
    this.timer = null;
    if (document.hidden || this.source) return;  // resumed by visibilitychange; or streamed
    this.timer = setTimeout(function () { self.poll(); }, delay);
  };

  Live.prototype.delay = function () {
    if (!this.failures) return INTERVAL;
    return Math.min(MAX_DELAY, INTERVAL * Math.pow(2, this.failures));
  };

  Live.prototype.poll = function () {
    var self = this;
    if (this.inFlight || document.hidden) return;
    this.inFlight = true;
    fetch(this.url, {
      headers: { "If-None-Match": '"' + this.version + '"', "Accept": "application/json" },
      cache: "no-store",
      credentials: "same-origin"
    }).then(function (response) {
      if (response.status === 304) return null;
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.json();
    }).then(function (state) {
      self.setOnline(true);
      if (state && String(state.version) !== self.version) return self.changed(state);
      return null;
    }).catch(function () {
      self.failures += 1;
      self.setOnline(false);
    }).then(function () {
      self.inFlight = false;
      self.schedule(self.delay());
    });
  };

  Live.prototype.setOnline = function (online) {
    if (online) this.failures = 0;
    this.offline.textContent = this.box.getAttribute("data-offline-text");
    this.offline.hidden = online;
  };

  Live.prototype.changed = function (state) {
    this.version = String(state.version);
    if (this.mode === "swap") return this.swap(state);
    this.announce(state);
    return null;
  };

  // Replace every region the user is not busy in; announce the change otherwise.
  Live.prototype.swap = function (state) {
    var self = this;
    var before = this.version;
    return fetch(this.box.getAttribute("data-page-url"), {
      cache: "no-store",
      credentials: "same-origin"
    }).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.text();
    }).then(function (html) {
      var fresh = new DOMParser().parseFromString(html, "text/html");
      var freshBox = fresh.querySelector("[data-live]");
      if (freshBox) self.version = freshBox.getAttribute("data-version");
      var kept = self.replaceRegions(fresh);
      if (!kept) { self.clearBanner(); return null; }
      if (state) { self.announce(state); return null; }
      return self.stateSince(before).then(function (found) { self.announce(found || {}); });
    });
  };

  // What changed since version ``before`` (its sentence for the banner), or null.
  Live.prototype.stateSince = function (before) {
    return fetch(this.url, {
      headers: { "If-None-Match": '"' + before + '"', "Accept": "application/json" },
      cache: "no-store",
      credentials: "same-origin"
    }).then(function (response) { return response.status === 200 ? response.json() : null; });
  };

  // A stream told of a new version: on the game page the fresh page is all it needs
  // (the change's sentence is asked for only if a region is kept); elsewhere, a poll.
  Live.prototype.follow = function (version) {
    var self = this;
    this.latest = version;
    if (this.mode !== "swap") { this.poll(); return; }
    if (this.inFlight) return;  // caught up when the one in flight ends
    this.inFlight = true;
    this.swap(null).catch(function () {
      self.failures += 1;
      self.setOnline(false);
    }).then(function () {
      self.inFlight = false;
      if (Number(self.latest) > Number(self.version) && !self.failures) self.follow(self.latest);
    });
  };

  Live.prototype.replaceRegions = function (fresh) {
    var kept = false;
    all(document, "[data-live-region]").forEach(function (region) {
      var name = region.getAttribute("data-live-region");
      var next = fresh.querySelector('[data-live-region="' + name + '"]');
      if (busy(region)) { kept = true; return; }
      if (!next) { region.hidden = true; region.innerHTML = ""; return; }
      region.innerHTML = next.innerHTML;
      region.hidden = next.hidden;
    });
    return kept;
  };

  Live.prototype.announce = function (state) {
    var banner = this.banner;
    if (state.change) this.changes.push(state.change);
    this.changes = this.changes.slice(-3);
    banner.textContent = "";
    this.changes.forEach(function (line) {
      var p = document.createElement("span");
      p.className = "live-change";
      p.textContent = line + " ";
      banner.appendChild(p);
    });
    var hint = this.box.getAttribute("data-hint-text");
    if (hint) banner.appendChild(document.createTextNode(hint + " "));
    var link = this.box.getAttribute("data-show-text");
    if (link) {
      var a = document.createElement("a");
      a.href = this.box.getAttribute("data-page-url");
      a.textContent = link;
      a.setAttribute("data-testid", "live-show");
      banner.appendChild(a);
    }
    banner.hidden = false;
  };

  Live.prototype.clearBanner = function () {
    this.changes = [];
    this.banner.hidden = true;
  };

  Live.prototype.canStream = function () {
    return Boolean(this.streamUrl && window.EventSource && !this.streamTimer);
  };

  // Each version the server sends that this page does not show is fetched as a poll
  // would fetch it. A stream the server ends (after 25 s, or when a worker stops) or a
  // short drop reconnects by itself; a refused one (503) leaves the page polling.
  Live.prototype.listen = function () {
    var self = this;
    if (this.source || document.hidden) return;
    var source = new EventSource(this.streamUrl);
    this.source = source;
    clearTimeout(this.timer);
    this.timer = null;
    source.addEventListener("version", function (event) {
      self.streamed();
      if (event.data !== self.version) self.follow(event.data);
    });
    source.addEventListener("open", function () { self.streamed(); });
    source.addEventListener("error", function () {
      if (source.readyState === EventSource.CLOSED) {
        self.stopListening();
        self.streamTimer = setTimeout(function () {
          self.streamTimer = null;
          self.resume();
        }, STREAM_AGAIN);
        self.schedule(INTERVAL);
      } else if (!self.dropTimer) {
        self.dropTimer = setTimeout(function () { self.setOnline(false); }, QUIET_DROP);
      }
    });
  };

  Live.prototype.streamed = function () {
    clearTimeout(this.dropTimer);
    this.dropTimer = null;
    this.setOnline(true);
  };

  Live.prototype.stopListening = function () {
    if (this.source) this.source.close();
    this.source = null;
    clearTimeout(this.dropTimer);
    this.dropTimer = null;
  };

  // Back in view, online again, or the stream may be tried again.
  Live.prototype.resume = function () {
    if (document.hidden) return;
    if (this.canStream()) this.listen(); else this.poll();
  };

  Live.prototype.start = function () {
    var self = this;
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden) { self.resume(); return; }
      clearTimeout(self.timer);
      self.timer = null;
      self.stopListening();  // a phone in a pocket holds no stream
    });
    window.addEventListener("online", function () {
      self.failures = 0;
      self.stopListening();  // a stream opened afresh shows the server is reachable again
      self.resume();
    });
    window.addEventListener("offline", function () { self.setOnline(false); });
    document.addEventListener("input", markDirty, true);
    document.addEventListener("change", markDirty, true);
    this.box.setAttribute("data-live-started", "1");
    if (this.canStream()) this.listen(); else this.schedule(INTERVAL);
  };

  // The screen stays on while a game is open: the phone lies on the table between
  // deals. A wake lock is dropped whenever the page is hidden, so it is asked for
  // again each time the page comes back; a refusal (low battery, no support) is
  // of no consequence and is ignored.
  function keepAwake() {
    if (!navigator.wakeLock || typeof navigator.wakeLock.request !== "function") return;
    function ask() {
      if (document.visibilityState !== "visible") return;
      navigator.wakeLock.request("screen").catch(function () {});
    }
    document.addEventListener("visibilitychange", ask);
    ask();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.querySelector("[data-live]");
    if (!box) return;
    keepAwake();
    if (window.fetch && window.DOMParser) new Live(box).start();
  });
})();
