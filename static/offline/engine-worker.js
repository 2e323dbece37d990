// scorekeeper: the rules engine on the phone, in a web worker (a module).
// It loads Pyodide from the app's own origin, unpacks the engine archive (the
// project's scorekeeper.rules, unchanged) and answers the page's questions
// with scorekeeper.web.offline.phone.check: no second engine in JavaScript.
// Served with the only policy that allows compiling WebAssembly.
//   page -> {type: "start", pyodide, archive, messages}   <- {type: "ready", ms}
//   page -> {type: "check", id, request, fn?}             <- {type: "answer", id, answer, ms}
//   (fn "screen": phone.screen, the game as the phone shows it; else phone.check)
"use strict";

let phone = null;
let starting = null;

const phases = {};

// Python's start-up is most of the wait (seconds on a slow phone): after the first
// start, a snapshot of the engine's memory (Python started, the engine imported, no
// game data) is kept in the cache, named after the engine's and Pyodide's versions;
// later starts restore it in a fraction of a second.
function snapshotCache(config) {
  const pyodide = config.pyodide.split("/").filter(Boolean).pop();
  return "sk-snapshot-" + config.archive.split("/").pop() + "-" + pyodide;
}

async function keptSnapshot(config) {
  try {
    const hit = await (await caches.open(snapshotCache(config))).match("snapshot");
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  } catch (error) {
    return null;
  }
}

async function keepSnapshot(config, pyodide) {
  try {
    const snapshot = pyodide.makeMemorySnapshot();
    await (await caches.open(snapshotCache(config))).put("snapshot", new Response(snapshot));
  } catch (error) { /* the next start is a slow one, nothing worse */ }
}

async function fromScratch(config, loadPyodide, base) {
  const pyodide = await loadPyodide({ indexURL: base, _makeSnapshot: true, stdout: () => {}, stderr: () => {} });
  const archive = await fetch(config.archive).then((r) => {
    if (!r.ok) throw new Error("archive " + r.status);
    return r.arrayBuffer();
  });
  pyodide.unpackArchive(archive, "zip", { extractDir: "/engine" });
  pyodide.runPython("import sys\nsys.path.insert(0, '/engine')\nimport scorekeeper.web.offline.phone");
  await keepSnapshot(config, pyodide);
  return pyodide;
}

async function start(config) {
  const began = performance.now();
  const base = new URL(config.pyodide, self.location.href).href;
  const catalogue = fetch(config.messages).then((r) => (r.ok ? r.text() : "{}"));
  const [{ loadPyodide }, snapshot] = await Promise.all([import(base + "pyodide.mjs"), keptSnapshot(config)]);
  let pyodide = null;
  if (snapshot) {
    try {
      pyodide = await loadPyodide({ indexURL: base, _loadSnapshot: snapshot, stdout: () => {}, stderr: () => {} });
      phases.from = "snapshot";
    } catch (error) {
      pyodide = null;
    }
  }
  if (!pyodide) {
    pyodide = await fromScratch(config, loadPyodide, base);
    phases.from = "scratch";
  }
  phases.pyodide = performance.now() - began;
  phone = pyodide.pyimport("scorekeeper.web.offline.phone");
  phone.use_catalogue(await catalogue);
  phases.engine = performance.now() - began - phases.pyodide;
  return performance.now() - began;
}

self.onmessage = async (event) => {
  const message = event.data || {};
  if (message.type === "start") {
    starting = starting || start(message);
    try {
      const ms = await starting;
      self.postMessage({ type: "ready", ms, phases });
    } catch (error) {
      starting = null;
      self.postMessage({ type: "failed", error: String(error && error.message || error) });
    }
  } else if (message.type === "check") {
    const began = performance.now();
    try {
      await starting;
      const fn = message.fn === "screen" ? phone.screen : phone.check;
      const answer = JSON.parse(fn(JSON.stringify(message.request)));
      self.postMessage({ type: "answer", id: message.id, answer, ms: performance.now() - began });
    } catch (error) {
      self.postMessage({ type: "answer", id: message.id, error: String(error && error.message || error) });
    }
  }
};
