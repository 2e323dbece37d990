// static/offline/sw.js, as written (a classic worker script), run in a vm context on an
// in-memory Cache Storage against a scripted server: a game's kept page and its kept copy
// (offline.json, the log the phone's engine replays offline) are always of one version.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SOURCE = readFileSync(ROOT + "static/offline/sw.js", "utf8");
const ORIGIN = "https://table.example";
const PAGE = "/games/g1";
const COPY = "/games/g1/offline.json";
const RELEASE = {
  version: "test", root: "/", precache: [], pyodide: "/offline/pyodide/1/",
  engine: "/offline/engine-1.zip", worker: "/offline/engine-worker.js", messages: "/offline/messages/",
  outbox: "/static/offline/outbox.js", unavailable: "/offline/unavailable",
  manifest: "/manifest.webmanifest", fresh: ["/games/new"]
};

// --- The scripted server: one game whose version each deal moves on -------------------
// ``before[path]``: run once just before that path is answered (another phone saves);
// ``fail[path]``: that path's next request fails as a dropped network does.
function makeServer() {
  const server = { version: 1, down: false, before: {}, fail: {}, requests: [] };
  server.fetch = (input) => {
    const url = new URL(typeof input === "string" ? input : input.url, ORIGIN);
    server.requests.push(url.pathname);
    return new Promise((resolve) => setImmediate(resolve)).then(() => {
      const path = url.pathname;
      if (server.before[path]) { const move = server.before[path]; delete server.before[path]; move(); }
      if (server.down || server.fail[path]) {
        delete server.fail[path];
        throw new TypeError("Failed to fetch");
      }
      const headers = { "X-Game-Version": String(server.version) };
      let response;
      if (path === PAGE) response = new Response(`<h1>Deal ${server.version}</h1>`, { headers });
      else if (path === COPY) response = Response.json({ version: server.version, log: [] }, { headers });
      else response = new Response("not found", { status: 404 });
      Object.defineProperty(response, "type", { value: "basic" }); // same origin, as a browser says
      return response;
    });
  };
  return server;
}

// --- Cache Storage, in memory -------------------------------------------------------
function makeCaches() {
  const stores = new Map();
  const key = (request) => new URL(typeof request === "string" ? request : request.url, ORIGIN).href;
  function open(name) {
    if (!stores.has(name)) stores.set(name, new Map());
    const entries = stores.get(name);
    return Promise.resolve({
      match: (request) => Promise.resolve(entries.has(key(request)) ? entries.get(key(request)).clone() : undefined),
      put: (request, response) => { entries.set(key(request), response); return Promise.resolve(); },
      keys: () => Promise.resolve([...entries.keys()].map((url) => ({ url }))),
      delete: (request) => Promise.resolve(entries.delete(key(request)))
    });
  }
  return {
    open,
    match: (request, options = {}) => {
      const names = options.cacheName ? [options.cacheName] : [...stores.keys()];
      return names.reduce((found, name) => found.then((hit) => hit || open(name).then((c) => c.match(request))),
        Promise.resolve(undefined));
    },
    keys: () => Promise.resolve([...stores.keys()]),
    delete: (name) => Promise.resolve(stores.delete(name))
  };
}

// --- sw.js in its own context ---------------------------------------------------------
let server, caches, handlers;

beforeEach(() => {
  server = makeServer();
  caches = makeCaches();
  handlers = {};
  const context = {
    RELEASE, caches, fetch: server.fetch, URL, Response, Promise, console,
    importScripts() {}, SKOutbox: { sync: () => Promise.resolve() },
    addEventListener: (type, fn) => { handlers[type] = fn; },
    location: { origin: ORIGIN }, clients: { claim: () => Promise.resolve() }
  };
  context.self = context;
  vm.createContext(context);
  vm.runInContext(SOURCE, context, { filename: "static/offline/sw.js" });
});

// A GET through the service worker, as a page makes it (``navigate``: opening the page):
// its answer, once everything the worker does with it is done.
async function get(path, mode = "cors") {
  const waits = [];
  let answer = null;
  const event = {
    request: { method: "GET", url: ORIGIN + path, mode },
    respondWith(promise) { answer = promise; },
    waitUntil(promise) { waits.push(promise); }
  };
  handlers.fetch(event);
  assert.ok(answer, `the service worker does not answer ${path}`);
  const response = await answer;
  // Then what it keeps in the background: its waitUntil, and a few more turns for writes
  // left floating.
  for (let turn = 0; turn < 50; turn += 1) {
    await Promise.all(waits.splice(0));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return response;
}

// The versions of the kept page and the kept copy, as the phone reads them offline.
async function kept() {
  const pages = await caches.open("sk-pages");
  const page = await pages.match(ORIGIN + PAGE);
  const copy = await pages.match(ORIGIN + COPY);
  return {
    page: page ? Number(/Deal (\d+)/.exec(await page.text())[1]) : null,
    copy: copy ? (await copy.json()).version : null
  };
}

// A phone that opened the game online: its page, then the copy its script fetches.
async function opened() {
  await get(PAGE, "navigate");
  await get(COPY);
  assert.deepEqual(await kept(), { page: 1, copy: 1 });
}

test("a live update's newer page is kept only with the copy of its version", async () => {
  await opened();
  server.version = 2; // another phone saved a deal: this page's live update fetches the page
  const response = await get(PAGE);
  assert.equal(await response.text(), "<h1>Deal 2</h1>");
  assert.deepEqual(await kept(), { page: 2, copy: 2 }, "the page shows deal 2, the copy it keeps is older");
});

test("a copy newer than the kept page brings its page with it", async () => {
  await opened();
  server.version = 2;
  assert.equal((await (await get(COPY)).json()).version, 2);
  assert.deepEqual(await kept(), { page: 2, copy: 2 });
});

test("the network lost before the copy came: the pair kept before stays whole", async () => {
  await opened();
  server.version = 2;
  server.fail[COPY] = true;
  const response = await get(PAGE); // the page still gets the fresh page online …
  assert.equal(await response.text(), "<h1>Deal 2</h1>");
  assert.deepEqual(await kept(), { page: 1, copy: 1 }, "… but the phone keeps no page newer than its copy");
  server.down = true; // offline: the page and the copy the phone shows are of one version
  assert.equal(await (await get(PAGE, "navigate")).text(), "<h1>Deal 1</h1>");
  assert.equal((await (await get(COPY)).json()).version, 1);
});

test("a game moving on between the two fetches: the older is fetched again", async () => {
  await opened();
  server.version = 2;
  server.before[COPY] = () => { server.version = 3; }; // a deal saved just before the copy's fetch
  await get(PAGE);
  assert.deepEqual(await kept(), { page: 3, copy: 3 });
});

test("two fetches at once leave one pair, of the later version", async () => {
  await opened();
  server.version = 2;
  const first = get(PAGE);
  server.before[COPY] = () => { server.version = 3; };
  const second = get(COPY);
  await Promise.all([first, second]);
  assert.deepEqual(await kept(), { page: 3, copy: 3 });
});

test("the first page opened is kept with its copy, fetched by the worker", async () => {
  await get(PAGE, "navigate");
  assert.deepEqual(await kept(), { page: 1, copy: 1 });
  assert.deepEqual(server.requests, [PAGE, COPY]);
  await get(COPY); // the page's own fetch of the copy: the pair is already of its version
  assert.deepEqual(server.requests, [PAGE, COPY, COPY]);
});
