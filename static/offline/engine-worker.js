// scorekeeper: the rules engine on the phone, in a web worker (a module).
// It loads Pyodide from the app's own origin, unpacks the engine archive (the
// project's scorekeeper.rules, unchanged) and answers the page's questions
// with scorekeeper.web.offline.phone.check: no second engine in JavaScript.
// Served with the only policy that allows compiling WebAssembly.
//   page -> {type: "start", pyodide, archive, messages}   <- {type: "ready", ms}
//   page -> {type: "check", id, request}                  <- {type: "answer", id, answer, ms}
"use strict";

let phone = null;
let starting = null;

async function start(config) {
  const began = performance.now();
  const base = new URL(config.pyodide, self.location.href).href;
  const { loadPyodide } = await import(base + "pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: base, stdout: () => {}, stderr: () => {} });
  const [archive, catalogue] = await Promise.all([
    fetch(config.archive).then((r) => { if (!r.ok) throw new Error("archive " + r.status); return r.arrayBuffer(); }),
    fetch(config.messages).then((r) => (r.ok ? r.text() : "{}"))
  ]);
  pyodide.unpackArchive(archive, "zip", { extractDir: "/engine" });
  pyodide.runPython("import sys\nif '/engine' not in sys.path: sys.path.insert(0, '/engine')");
  phone = pyodide.pyimport("scorekeeper.web.offline.phone");
  phone.use_catalogue(catalogue);
  return performance.now() - began;
}

self.onmessage = async (event) => {
  const message = event.data || {};
  if (message.type === "start") {
    starting = starting || start(message);
    try {
      const ms = await starting;
      self.postMessage({ type: "ready", ms });
    } catch (error) {
      starting = null;
      self.postMessage({ type: "failed", error: String(error && error.message || error) });
    }
  } else if (message.type === "check") {
    const began = performance.now();
    try {
      await starting;
      const answer = JSON.parse(phone.check(JSON.stringify(message.request)));
      self.postMessage({ type: "answer", id: message.id, answer, ms: performance.now() - began });
    } catch (error) {
      self.postMessage({ type: "answer", id: message.id, error: String(error && error.message || error) });
    }
  }
};
