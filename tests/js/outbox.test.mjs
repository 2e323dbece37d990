// static/offline/outbox.js, as written (a classic script on `self`), run in a vm context
// on an in-memory IndexedDB (the npm package fake-indexeddb, fetched into vendor/ by
// scripts/test.sh) against a scripted server: the order of a game's entries, their
// retries, and the conflicts that hold them.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { webcrypto } from "node:crypto";
import vm from "node:vm";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SOURCE = readFileSync(ROOT + "static/offline/outbox.js", "utf8");
const SYNC_MS = 8000; // outbox.js: a sync request unanswered by then is given up

// The version pinned in scripts/lib.sh, fetched there by ensure_fake_indexeddb.
const PINNED = /^FAKE_INDEXEDDB_VERSION="([^"]+)"$/m.exec(readFileSync(ROOT + "scripts/lib.sh", "utf8"));
assert.ok(PINNED, "scripts/lib.sh pins no FAKE_INDEXEDDB_VERSION");
const VENDOR = `vendor/fake-indexeddb/${PINNED[1]}/build/esm/index.js`;
let IDBFactory;
try {
  ({ IDBFactory } = await import(pathToFileURL(ROOT + VENDOR).href));
} catch (error) {
  throw new Error(
    `fake-indexeddb ${PINNED[1]} is not in ${VENDOR} (${error.code || error.message}): ` +
      "run `bash scripts/test.sh` once, which fetches it (ensure_fake_indexeddb in scripts/lib.sh)"
  );
}

// --- The scripted server -----------------------------------------------------------
// GET <game>/offline gives the game and a CSRF token; POST <game>/sync answers each
// entry_id as planned (default: written), in turn: server.plan[entry_id] = [...].
const OUTCOMES = {
  written: (body, game) => {
    game.deals += 1;
    game.version = "v" + game.deals;
    return reply(201, {
      deal: { n: body.n || game.deals, contracts: ["trix"], captures: [] },
      game: { version: game.version, deals_played: game.deals }
    });
  },
  before: (body, game) =>
    reply(200, {
      repeat: true,
      deal: { n: body.n || game.deals, contracts: ["trix"], captures: [] },
      game: { version: game.version, deals_played: game.deals }
    }),
  refused409: (body, game) =>
    reply(409, {
      errors: ["position taken"],
      game: { version: game.version },
      position: 4,
      other: { by: "another phone" },
      same: false,
      next: 5
    }),
  refused422: (body, game) => reply(422, { errors: ["not a valid deal"], game: { version: game.version } }),
  busy: () => reply(503, null),
  network: () => Promise.reject(new TypeError("Failed to fetch")),
  hang: () => new Promise(() => {})
};

function reply(status, body) {
  return Promise.resolve({
    ok: status >= 200 && status < 300,
    status,
    json: () => (body === null ? Promise.reject(new SyntaxError("no JSON")) : Promise.resolve(body))
  });
}

function makeServer() {
  const server = {
    games: {}, // id -> {version, deals}
    plan: {}, // entry_id -> [outcome, ...]
    requests: [], // {method, url, body, headers, signal, aborted}
    down: false,
    inFlight: 0,
    maxInFlight: 0,
    posts() {
      return this.requests.filter((r) => r.method === "POST");
    },
    sent() {
      return this.posts().map((r) => r.body.entry_id);
    }
  };
  server.fetch = (url, options = {}) => {
    const request = {
      method: options.method || "GET",
      url,
      body: options.body ? JSON.parse(options.body) : null,
      headers: options.headers || {},
      signal: options.signal,
      aborted: false
    };
    server.requests.push(request);
    server.inFlight += 1;
    server.maxInFlight = Math.max(server.maxInFlight, server.inFlight);
    const answered = new Promise((resolve) => setImmediate(resolve)).then(() => {
      if (server.down) return OUTCOMES.network();
      const match = /^\/games\/(\w+)\/(offline|sync)$/.exec(url);
      const id = match[1];
      const game = (server.games[id] = server.games[id] || { version: "v0", deals: 0 });
      if (match[2] === "offline") {
        return reply(200, { version: game.version, csrf_token: "token-" + id, urls: { sync: `/games/${id}/sync` } });
      }
      const planned = (server.plan[request.body.entry_id] || []).shift() || "written";
      return OUTCOMES[planned](request.body, game);
    });
    const aborted = new Promise((resolve, reject) => {
      if (!options.signal) return;
      options.signal.addEventListener("abort", () => {
        request.aborted = true;
        reject(new DOMException("The operation was aborted.", "AbortError"));
      });
    });
    const settled = Promise.race([answered, aborted]);
    const done = () => { server.inFlight -= 1; };
    settled.then(done, done);
    return settled;
  };
  return server;
}

// --- outbox.js in its own context --------------------------------------------------
let server, box, heard, posted, storage;

function load() {
  server = makeServer();
  heard = [];
  posted = [];
  storage = new Map();
  class BroadcastChannel {
    constructor(name) { this.name = name; }
    postMessage(message) { posted.push(JSON.parse(JSON.stringify(message))); }
    addEventListener() {}
  }
  const context = {
    indexedDB: new IDBFactory(),
    fetch: server.fetch,
    AbortController,
    BroadcastChannel,
    localStorage: {
      getItem: (key) => (storage.has(key) ? storage.get(key) : null),
      setItem: (key, value) => storage.set(key, String(value))
    },
    crypto: webcrypto,
    console,
    // Read at each call, so that node's mock timers (t.mock.timers) reach the script.
    setTimeout: (...args) => globalThis.setTimeout(...args),
    clearTimeout: (...args) => globalThis.clearTimeout(...args)
  };
  context.self = context;
  vm.createContext(context);
  vm.runInContext(SOURCE, context, { filename: "static/offline/outbox.js" });
  box = context.SKOutbox;
  box.listen((what) => heard.push(what.type));
}

beforeEach(load);

// Plain data out of the script's realm, for deepEqual.
const plain = (value) => JSON.parse(JSON.stringify(value));

// An entry as add() leaves it, with a chosen seq (add() takes the clock's).
function entry(id, game, seq, more = {}) {
  return {
    entry_id: id, game, seq, state: "waiting", action: "record", created: "2026-01-01T00:00:00Z",
    urls: { offline: `/games/${game}/offline`, sync: `/games/${game}/sync` }, ...more
  };
}

async function put(...entries) {
  for (const e of entries) await box.put(e);
}

async function ids(game) {
  return (await box.list(game)).map((e) => e.entry_id);
}

async function byId(id) {
  return plain((await box.list()).find((e) => e.entry_id === id) || null);
}

// Wait (on real turns of the event loop) until the script has got as far as `ready()`.
async function until(ready, what) {
  for (let turn = 0; turn < 2000; turn += 1) {
    if (ready()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.fail("never happened: " + what);
}

// --- Order -------------------------------------------------------------------------

test("a game's entries are sent in their order (seq), one at a time, and each leaves once written", async () => {
  // Ids against their order: the store's own (by entry_id) is not the outbox's.
  await put(entry("z-first", "g1", 1, { n: 1 }), entry("m-second", "g1", 2, { n: 2 }), entry("a-third", "g1", 3, { n: 3 }));
  const report = await box.sync();
  assert.deepEqual(server.sent(), ["z-first", "m-second", "a-third"]);
  assert.equal(server.maxInFlight, 1, "a request was sent before the one ahead of it was answered");
  assert.deepEqual(plain(report), { synced: 3, conflicts: 0, games: { g1: true } });
  assert.deepEqual(await ids("g1"), []);
  // The game is read once, and its token goes with every entry.
  assert.deepEqual(server.requests.map((r) => r.method + " " + r.url),
    ["GET /games/g1/offline", "POST /games/g1/sync", "POST /games/g1/sync", "POST /games/g1/sync"]);
  for (const r of server.posts()) assert.equal(r.headers["X-CSRFToken"], "token-g1");
});

test("entries added one after another go in the order they were added", async () => {
  const added = [];
  for (const n of [1, 2, 3]) {
    added.push((await box.add({ game: "g1", action: "record", n, urls: { offline: "/games/g1/offline" } })).entry_id);
    await new Promise((resolve) => setTimeout(resolve, 2)); // seq is the clock's millisecond
  }
  assert.deepEqual(await ids("g1"), added);
  await box.sync();
  assert.deepEqual(server.sent(), added);
});

test("add() gives an entry a new id and the waiting state, and keeps an id it is given", async () => {
  const one = await box.add({ game: "g1", action: "record", urls: {} });
  const two = await box.add({ game: "g1", action: "record", urls: {} });
  const again = await box.add({ game: "g1", action: "record", entry_id: "sent-once", urls: {} });
  assert.match(one.entry_id, /^o[0-9a-z]+-[0-9a-f]{24}$/);
  assert.notEqual(one.entry_id, two.entry_id);
  assert.equal(again.entry_id, "sent-once");
  assert.deepEqual((await box.list("g1")).map((e) => e.state), ["waiting", "waiting", "waiting"]);
});

test("what is sent: the entry's id, action, entry, n, version and fields", async () => {
  await put(entry("e1", "g1", 1, {
    action: "record", entry: { contracts: ["trix"] }, n: 7, version: "v6",
    fields: { doubled: ["K"], entry_id: "not this", n: 99 }
  }));
  await box.sync();
  assert.deepEqual(server.posts()[0].body,
    { entry_id: "e1", action: "record", entry: { contracts: ["trix"] }, n: 7, version: "v6", doubled: ["K"] });
});

// --- Leaving the outbox only on the server's answer --------------------------------

test("an entry leaves the outbox only on the server's answer, not when it is sent", async () => {
  await put(entry("e1", "g1", 1), entry("e2", "g1", 2));
  let answer;
  server.plan.e1 = ["held"];
  OUTCOMES.held = (body, game) => new Promise((resolve) => { answer = () => resolve(OUTCOMES.written(body, game)); });
  try {
    const syncing = box.sync();
    await until(() => answer, "e1 sent");
    for (let turn = 0; turn < 50; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(await ids("g1"), ["e1", "e2"], "gone from the outbox before the server answered");
    assert.deepEqual(server.sent(), ["e1"], "e2 sent before e1 was answered");
    answer();
    await syncing;
  } finally {
    delete OUTCOMES.held;
  }
  assert.deepEqual(server.sent(), ["e1", "e2"]);
  assert.deepEqual(await ids("g1"), []);
});

test("written (201) and written before (200, a repeat) both take the entry out", async () => {
  await put(entry("new", "g1", 1, { n: 1 }), entry("repeat", "g1", 2, { n: 1 }));
  server.plan.repeat = ["before"];
  const report = await box.sync();
  assert.deepEqual(server.sent(), ["new", "repeat"]);
  assert.equal(report.synced, 2);
  assert.deepEqual(await ids("g1"), []);
});

test("a busy server's answer (503) keeps the entry, and the sync fails", async () => {
  await put(entry("e1", "g1", 1), entry("e2", "g1", 2));
  server.plan.e1 = ["busy"];
  await assert.rejects(box.sync(), /sync answered 503/);
  assert.deepEqual(await ids("g1"), ["e1", "e2"]);
  assert.equal((await byId("e1")).state, "waiting");
  assert.deepEqual(server.sent(), ["e1"]);
});

// --- Conflicts ---------------------------------------------------------------------

for (const [status, outcome] of [[409, "refused409"], [422, "refused422"]]) {
  test(`an entry refused (${status}) is kept as a conflict, and the game's later entries wait behind it`, async () => {
    await put(entry("e1", "g1", 1), entry("e2", "g1", 2), entry("e3", "g1", 3));
    server.plan.e2 = [outcome];
    const report = await box.sync();
    assert.deepEqual(plain(report), { synced: 1, conflicts: 1, games: { g1: true } });
    assert.deepEqual(server.sent(), ["e1", "e2"], "an entry behind the refused one was sent");
    assert.deepEqual(await ids("g1"), ["e2", "e3"]);
    const refused = await byId("e2");
    assert.equal(refused.state, "conflict");
    assert.equal(refused.refusal.status, status);
    assert.deepEqual(refused.refusal.game, { version: "v1" });
    if (status === 409) {
      assert.deepEqual(refused.refusal.errors, ["position taken"]);
      assert.deepEqual(refused.refusal.taken, { position: 4, other: { by: "another phone" }, mine: null, same: false, next: 5 });
    } else {
      assert.deepEqual(refused.refusal.errors, ["not a valid deal"]);
      assert.equal(refused.refusal.taken, undefined);
    }
    assert.equal((await byId("e3")).state, "waiting");
    // Another sync sends neither: the conflict waits for the player.
    const again = await box.sync();
    assert.deepEqual(server.sent(), ["e1", "e2"]);
    assert.deepEqual(plain(again), { synced: 0, conflicts: 0, games: {} });
  });
}

test("a refusal without a JSON body is no conflict: the entry waits for a later sync", async () => {
  await put(entry("e1", "g1", 1));
  server.plan.e1 = ["refusedNoBody"];
  OUTCOMES.refusedNoBody = () => reply(409, null);
  try {
    await assert.rejects(box.sync(), /sync answered 409/);
  } finally {
    delete OUTCOMES.refusedNoBody;
  }
  assert.equal((await byId("e1")).state, "waiting");
});

// --- Network failures and hung requests ---------------------------------------------

test("a network failure keeps every entry, and the next sync sends them again under the same ids", async () => {
  await put(entry("e1", "g1", 1), entry("e2", "g1", 2));
  server.plan.e1 = ["network"];
  await assert.rejects(box.sync(), /Failed to fetch/);
  assert.deepEqual(await ids("g1"), ["e1", "e2"]);
  assert.deepEqual((await box.list("g1")).map((e) => e.state), ["waiting", "waiting"]);
  assert.deepEqual(server.sent(), ["e1"]);
  assert.ok(heard.includes("sync-failed"));

  const report = await box.sync();
  assert.equal(report.synced, 2);
  assert.deepEqual(server.sent(), ["e1", "e1", "e2"]);
  assert.deepEqual(await ids("g1"), []);
});

test("a network down before the game is read keeps every entry", async () => {
  await put(entry("e1", "g1", 1));
  server.down = true;
  await assert.rejects(box.sync());
  assert.deepEqual(await ids("g1"), ["e1"]);
  server.down = false;
  await box.sync();
  assert.deepEqual(server.sent(), ["e1"]);
  assert.deepEqual(await ids("g1"), []);
});

test("a hung request is given up after SYNC_MS, the entry kept, and sent again later", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  await put(entry("e1", "g1", 1), entry("e2", "g1", 2));
  server.plan.e1 = ["hang"];
  const syncing = box.sync();
  let failed = null;
  syncing.catch((error) => { failed = error; });
  await until(() => server.posts().length === 1, "e1 sent");
  const hung = server.posts()[0];

  t.mock.timers.tick(SYNC_MS - 1);
  await until(() => true, "a turn");
  assert.equal(hung.aborted, false, "given up before SYNC_MS");
  assert.equal(failed, null);

  t.mock.timers.tick(1);
  await until(() => failed !== null, "the sync given up");
  assert.equal(hung.aborted, true);
  assert.equal(failed.name, "AbortError");
  assert.deepEqual(await ids("g1"), ["e1", "e2"]);
  assert.deepEqual(server.sent(), ["e1"]);

  // Tried again later: the same entries, in order, under the same ids.
  const report = await box.sync();
  assert.equal(report.synced, 2);
  assert.deepEqual(server.sent(), ["e1", "e1", "e2"]);
  assert.deepEqual(await ids("g1"), []);
});

test("a request answered in time is not aborted later", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  await put(entry("e1", "g1", 1));
  await box.sync();
  const [game, post] = server.requests;
  t.mock.timers.tick(SYNC_MS * 2);
  assert.equal(game.aborted, false);
  assert.equal(post.aborted, false);
});

// --- Two games -----------------------------------------------------------------------

test("two games' entries sync independently: a conflict in one holds none of the other's", async () => {
  await put(
    entry("a1", "ga", 1), entry("b1", "gb", 2), entry("a2", "ga", 3), entry("b2", "gb", 4), entry("a3", "ga", 5)
  );
  server.plan.a2 = ["refused409"];
  const report = await box.sync();
  assert.deepEqual(plain(report), { synced: 3, conflicts: 1, games: { ga: true, gb: true } });
  const posts = server.posts();
  assert.deepEqual(posts.filter((r) => r.url === "/games/ga/sync").map((r) => r.body.entry_id), ["a1", "a2"]);
  assert.deepEqual(posts.filter((r) => r.url === "/games/gb/sync").map((r) => r.body.entry_id), ["b1", "b2"]);
  for (const r of posts) assert.equal(r.headers["X-CSRFToken"], "token-" + r.url.split("/")[2]);
  assert.deepEqual(server.requests.filter((r) => r.method === "GET").map((r) => r.url),
    ["/games/ga/offline", "/games/gb/offline"]);
  assert.deepEqual(await ids("ga"), ["a2", "a3"]);
  assert.deepEqual(await ids("gb"), []);
});

test("one sync at a time: a second call while one runs is the same sync", async () => {
  await put(entry("e1", "g1", 1), entry("e2", "g1", 2));
  const [one, two] = [box.sync(), box.sync()];
  assert.equal(one, two);
  await one;
  assert.deepEqual(server.sent(), ["e1", "e2"]);
});

// --- Follow-ups: written, discard --------------------------------------------------

test("written: what follows a written entry takes the version it made", async () => {
  await put(entry("deal", "g1", 1, { n: 1 }), entry("undo", "g1", 2, { action: "undo", follows: "deal", version: "old" }));
  server.plan.undo = ["network"]; // kept, to look at
  await assert.rejects(box.sync());
  assert.deepEqual(server.posts()[1].body, { entry_id: "undo", action: "undo", version: "v1" });
  const undo = await byId("undo");
  assert.equal(undo.follows, undefined);
  assert.equal(undo.version, "v1");
});

test("written before: what follows takes the game's version only where the game still ends with that deal", async () => {
  // The game has moved on past deal 1 (two deals played): the version is not this deal's.
  server.games.g1 = { version: "v2", deals: 2 };
  await put(entry("deal", "g1", 1, { n: 1 }), entry("fix", "g1", 2, { action: "correct", follows: "deal", version: "old" }));
  server.plan.deal = ["before"];
  server.plan.fix = ["network"];
  await assert.rejects(box.sync());
  let fix = await byId("fix");
  assert.equal(fix.follows, undefined);
  assert.equal(fix.version, "old");

  // The game still ends with deal 2: its version is this deal's.
  load();
  server.games.g1 = { version: "v2", deals: 2 };
  await put(entry("deal", "g1", 1, { n: 2 }), entry("fix", "g1", 2, { action: "correct", follows: "deal", version: "old" }));
  server.plan.deal = ["before"];
  server.plan.fix = ["network"];
  await assert.rejects(box.sync());
  fix = await byId("fix");
  assert.equal(fix.follows, undefined);
  assert.equal(fix.version, "v2");
});

test("written: an entry in conflict, or following another, is left as it is", async () => {
  await put(
    entry("deal", "g1", 1, { n: 1 }),
    entry("other", "g1", 2, { follows: "elsewhere", version: "old" }),
    entry("held", "g1", 3, { state: "conflict", follows: "deal", version: "old" })
  );
  server.plan.other = ["network"];
  await assert.rejects(box.sync());
  const other = await byId("other");
  assert.equal(other.follows, "elsewhere");
  assert.equal(other.version, "old");
  const held = await byId("held");
  assert.equal(held.follows, "deal");
  assert.equal(held.version, "old");
});

test("discard: an undo of the entry goes with it; what followed it follows what it followed", async () => {
  await put(
    entry("before", "g1", 1),
    entry("gone", "g1", 2, { state: "conflict", follows: "before", refusal: { status: 409, game: { version: "v9" } } }),
    entry("undo", "g1", 3, { action: "undo", undoes: "gone" }),
    entry("next", "g1", 4, { follows: "gone", version: "old" }),
    entry("apart", "g1", 5, { follows: "before", version: "keep" }),
    entry("elsewhere", "g2", 6, { undoes: "gone" })
  );
  await box.discard(await byId("gone"));
  assert.deepEqual(await ids("g1"), ["before", "next", "apart"]);
  assert.deepEqual(await ids("g2"), ["elsewhere"], "another game's entries are not this one's");
  const next = await byId("next");
  assert.equal(next.follows, "before");
  assert.equal(next.version, "old");
  assert.equal((await byId("apart")).follows, "before");
});

test("discard: what followed an entry that followed nothing takes the version the refusal saw", async () => {
  await put(
    entry("gone", "g1", 1, { state: "conflict", refusal: { status: 409, game: { version: "v9" } } }),
    entry("next", "g1", 2, { follows: "gone", version: "old" })
  );
  await box.discard(await byId("gone"));
  const next = await byId("next");
  assert.equal(next.follows, undefined);
  assert.equal(next.version, "v9");
  // Then it is sent, with that version, and the conflict is gone.
  await box.sync();
  assert.deepEqual(server.posts().map((r) => r.body), [{ entry_id: "next", action: "record", version: "v9" }]);
});

test("discard without a refusal's game keeps the follower's version", async () => {
  await put(entry("gone", "g1", 1), entry("next", "g1", 2, { follows: "gone", version: "old" }));
  await box.discard(await byId("gone"));
  const next = await byId("next");
  assert.equal(next.follows, undefined);
  assert.equal(next.version, "old");
});

// --- Mine ----------------------------------------------------------------------------

test("mine: the entries this phone had written are remembered by their ids, per game", async () => {
  await put(
    entry("w1", "g1", 1, { n: 1 }), entry("w2", "g1", 2, { n: 1 }), entry("r3", "g1", 3),
    entry("x1", "g2", 4, { action: "undo" })
  );
  server.plan.w2 = ["before"];
  server.plan.r3 = ["refused409"];
  await box.sync();
  const deal = { contracts: ["trix"], captures: [] };
  assert.deepEqual(plain(await box.mine("g1")), {
    w1: { entry_id: "w1", game: "g1", action: "record", n: 1, deal },
    w2: { entry_id: "w2", game: "g1", action: "record", n: 1, deal }
  });
  assert.deepEqual(Object.keys(await box.mine("g2")), ["x1"]);
  assert.deepEqual(plain(await box.mine("g3")), {});
});

test("mine: a write not sent through the outbox is remembered too", async () => {
  await box.remember({ entry_id: "form-1", game: "g1", action: "record", n: 4, deal: null });
  assert.deepEqual(plain(await box.mine("g1")),
    { "form-1": { entry_id: "form-1", game: "g1", action: "record", n: 4, deal: null } });
});

test("a failed or refused entry is not remembered as written", async () => {
  await put(entry("r1", "g1", 1), entry("f1", "g2", 2), entry("f2", "g2", 3));
  server.plan.r1 = ["refused422"];
  server.plan.f1 = ["network"];
  await assert.rejects(box.sync());
  server.plan.f1 = ["busy"];
  await assert.rejects(box.sync());
  assert.deepEqual(server.sent(), ["r1", "f1", "f1"]);
  assert.deepEqual(plain(await box.mine("g1")), {});
  assert.deepEqual(plain(await box.mine("g2")), {});
});

// --- What the pages hear -----------------------------------------------------------

test("a sync is announced to the page and the channel, and the outbox's size kept in localStorage", async () => {
  await put(entry("e1", "g1", 1), entry("e2", "g1", 2));
  server.plan.e2 = ["refused409"];
  await box.sync();
  assert.deepEqual(heard.filter((type) => type !== "changed"), ["syncing", "synced"]);
  assert.deepEqual(posted.find((m) => m.type === "synced"),
    { type: "synced", report: { synced: 1, conflicts: 1, games: { g1: true } } });
  assert.ok(posted.some((m) => m.type === "changed" && m.game === "g1"));
  await until(() => storage.get("sk-outbox") === "1", "the count of one entry left");
});
