// scorekeeper: live updates. A visible game page listens to its event stream;
// without one (no EventSource, or a 503) it polls every 1.5 s and tries the stream
// again a minute later. On a change the game page ("swap") replaces the regions
// the user is not busy in; a deal form ("banner") keeps its input and says what
// changed. Every text comes from the page (data-*).
"use strict";

(function () {
  var INTERVAL = 1500;
  var MAX_DELAY = 30000;
  var STREAM_AGAIN = 60000;
  var QUIET_DROP = 3000;  // a stream back within this was never "offline"

  function all(root, selector) {
    return Array.prototype.slice.call(root.querySelectorAll(selector));
  }

  // Forms typed or focused in are never replaced.
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
    this.source = this.streamTimer = this.dropTimer = this.timer = null;
    this.failures = 0;
    this.inFlight = false;
    this.changes = [];
  }

  // Polls back off after failures; none while hidden or streamed.
  Live.prototype.schedule = function () {
    var self = this;
    clearTimeout(this.timer);
    this.timer = null;
    if (document.hidden || this.source) return;
    var delay = Math.min(MAX_DELAY, INTERVAL * Math.pow(2, this.failures));
    this.timer = setTimeout(function () { self.poll(); }, delay);
  };

  // The state since ``version`` (null: unchanged).
  Live.prototype.since = function (version) {
    return fetch(this.url, {
      headers: { "If-None-Match": '"' + version + '"' },
      cache: "no-store"
    }).then(function (response) {
      if (response.status === 304) return null;
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.json();
    });
  };

  // One fetch at a time: the state since this page's version, or (a version the
  // stream sent, on the game page) just the fresh page; the banner's sentence is
  // then asked for only if a region is kept.
  Live.prototype.poll = function (streamed) {
    var self = this;
    if (this.inFlight || document.hidden) return;
    this.inFlight = true;
    var work = streamed && this.mode === "swap" ? this.swap(null) :
      this.since(this.version).then(function (state) {
        if (state && String(state.version) !== self.version) return self.changed(state);
        return null;
      });
    work.then(function () { self.setOnline(true); }, function () {
      self.failures += 1;
      self.setOnline(false);
    }).then(function () {
      self.inFlight = false;
      if (!self.source) self.schedule();
      else if (Number(self.latest) > Number(self.version) && !self.failures) self.poll(true);
    });
  };

  Live.prototype.setOnline = function (online) {
    if (online) { this.failures = 0; clearTimeout(this.dropTimer); this.dropTimer = null; }
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
    return fetch(this.box.getAttribute("data-page-url"), { cache: "no-store" }).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.text();
    }).then(function (html) {
      var fresh = new DOMParser().parseFromString(html, "text/html");
      var freshBox = fresh.querySelector("[data-live]");
      if (freshBox) self.version = freshBox.getAttribute("data-version");
      var kept = self.replaceRegions(fresh);
      if (!kept) { self.clearBanner(); return null; }
      if (state) { self.announce(state); return null; }
      return self.since(before).then(function (found) { self.announce(found || {}); });
    });
  };

  // What names an element across a swap: its id, its test id, or its link's address.
  var KEYS = ["id", "data-testid", "href"];

  function keyOf(el) {
    for (var i = 0; i < KEYS.length; i++) {
      var value = el.getAttribute(KEYS[i]);
      if (value) return { attr: KEYS[i], value: value };
    }
    return null;
  }

  function findKey(root, key) {
    if (!key) return null;
    return all(root, "[" + key.attr + "]").filter(function (el) {
      return el.getAttribute(key.attr) === key.value;
    })[0] || null;
  }

  // A swap must not drop the keyboard's place: focus goes back to the same link or button
  // in the fresh region, or to the region itself when it is gone.
  function refocus(region, key) {
    var target = findKey(region, key);
    if (!target || target.hidden || target.disabled) {
      target = region;
      if (!region.hasAttribute("tabindex")) region.setAttribute("tabindex", "-1");
    }
    target.focus({ preventScroll: true });
  }

  Live.prototype.replaceRegions = function (fresh) {
    var kept = false;
    all(document, "[data-live-region]").forEach(function (region) {
      var name = region.getAttribute("data-live-region");
      var next = fresh.querySelector('[data-live-region="' + name + '"]');
      if (busy(region)) { kept = true; return; }
      var active = document.activeElement;
      var focused = active && active !== region && region.contains(active) ? keyOf(active) || {} : null;
      if (!next) { region.hidden = true; region.innerHTML = ""; return; }
      region.innerHTML = next.innerHTML;
      region.hidden = next.hidden;
      if (focused) refocus(region, focused.attr ? focused : null);
    });
    document.dispatchEvent(new CustomEvent("sk-live-swapped"));
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

  // A stream ended by the server or a short drop reconnects by itself; a refused
  // one leaves the page polling.
  Live.prototype.listen = function () {
    var self = this;
    if (this.source || document.hidden) return;
    var source = new EventSource(this.streamUrl);
    this.source = source;
    clearTimeout(this.timer);
    source.addEventListener("version", function (event) {
      self.setOnline(true);
      self.latest = event.data;
      if (event.data !== self.version) self.poll(true);
    });
    source.addEventListener("open", function () { self.setOnline(true); });
    source.addEventListener("error", function () {
      if (source.readyState === EventSource.CLOSED) {
        self.stopListening();
        self.streamTimer = setTimeout(function () {
          self.streamTimer = null;
          self.resume();
        }, STREAM_AGAIN);
        self.schedule();
      } else if (!self.dropTimer) {
        self.dropTimer = setTimeout(function () { self.setOnline(false); }, QUIET_DROP);
      }
    });
  };

  Live.prototype.stopListening = function () {
    if (this.source) this.source.close();
    this.source = null;
    clearTimeout(this.dropTimer);
    this.dropTimer = null;
  };

  Live.prototype.resume = function () {
    if (document.hidden) return;
    if (this.canStream()) this.listen(); else this.poll();
  };

  Live.prototype.start = function () {
    var self = this;
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden) { self.resume(); return; }
      clearTimeout(self.timer);
      self.stopListening();  // a phone in a pocket holds no stream
    });
    window.addEventListener("online", function () {
      self.failures = 0;
      self.stopListening();  // a fresh stream shows the server is back
      self.resume();
    });
    window.addEventListener("offline", function () { self.setOnline(false); });
    document.addEventListener("input", markDirty, true);
    document.addEventListener("change", markDirty, true);
    this.box.setAttribute("data-live-started", "1");
    if (this.canStream()) this.listen(); else this.schedule();
  };

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.querySelector("[data-live]");
    if (!box) return;
    if (window.fetch && window.DOMParser) new Live(box).start();
  });
})();
