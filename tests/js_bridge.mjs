// The Node end of the `js_modules` test fixture (tests/conftest.py): the site's pure modules (site/assets/js/*.js,
// as they are, no bundling) evaluated for Python tests that compare them with the Python they mirror.
// Requests arrive one JSON object a line on stdin, answers leave the same way on stdout, one at a time:
//   {"id", "module", "expression", "args"}  ->  the value of `expression`, where `m` is the module and `args` the list
//   {"id", "function", "arg"}              ->  the value of the function (its source text) called with `arg`
// An answer is {"id", "value"} or {"id", "error"}; undefined becomes null, as Playwright's evaluate() gives it.
import { createInterface } from 'node:readline';
import { Worker as ThreadWorker } from 'node:worker_threads';

const JS = new URL('../site/assets/js/', import.meta.url);
const AsyncFunction = (async () => {}).constructor;

// Web Workers as a page makes them from a Blob URL (the linear-time pattern tests run each pattern in one, stopped
// when it overruns), on Node's worker threads.
const blobs = new Map();
const createObjectURL = URL.createObjectURL.bind(URL);
URL.createObjectURL = (blob) => {
  const url = createObjectURL(blob);
  blobs.set(url, blob);
  return url;
};
const PRELUDE = `const { parentPort } = require('node:worker_threads');
const postMessage = (data) => parentPort.postMessage(data);
let onmessage = null;
parentPort.on('message', (data) => onmessage({ data }));
`;
globalThis.Worker = class {
  constructor(url) {
    this.onmessage = null;
    this.onerror = null;
    this.thread = blobs.get(String(url)).text().then((code) => {
      const thread = new ThreadWorker(PRELUDE + code, { eval: true });
      thread.on('message', (data) => this.onmessage?.({ data }));
      thread.on('error', (error) => this.onerror?.({ message: String(error?.message ?? error) }));
      return thread;
    });
  }
  postMessage(data) {
    this.thread.then((thread) => thread.postMessage(data));
  }
  terminate() {
    this.thread.then((thread) => thread.terminate());
  }
};

const asPlaywright = (key, value) => (value === undefined ? null : value);

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  const request = JSON.parse(line);
  let answer;
  try {
    let value;
    if (request.module !== undefined) {
      const m = await import(new URL(request.module, JS));
      value = await new AsyncFunction('m', 'args', `return (${request.expression});`)(m, request.args);
    } else {
      value = await new AsyncFunction('arg', `return (${request.function})(arg);`)(request.arg);
    }
    answer = { id: request.id, value: value === undefined ? null : value };
  } catch (error) {
    answer = { id: request.id, error: String(error?.stack ?? error) };
  }
  process.stdout.write(`${JSON.stringify(answer, asPlaywright)}\n`);
}
