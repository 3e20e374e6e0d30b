// The Web Worker that records a search for the web edition: it loads the
// recorder (umax-record.js/.wasm, a WebAssembly instance of its own), runs
// one think per worker, posts progress messages while it searches, and
// posts the trace's bytes and the result at the end. The page ends the
// worker to stop a search. A job is {fen, moves, nodes[, without][, depth][, maxNodes]}:
// `without` is the Lab's --without list (the think runs without those ideas),
// `depth` the Lab's --depth (the think ends after the root's iteration of that
// draft, no budget: nodes 0), `maxNodes` a cap that stops the think once it has
// counted that many nodes (the answer's `stopped` says so, with no trace).
var pending = null;
var ready = false;
var Module = {
  print: function (text) { postMessage({ type: 'log', text: text }); },
  printErr: function (text) { postMessage({ type: 'log', text: text }); },
  onAbort: function (what) {
    postMessage({ type: 'done', result: { ok: false, error: 'the recorder stopped: ' + what } });
  },
  onRuntimeInitialized: function () {
    ready = true;
    if (pending) recordJob(pending);
  },
};
importScripts('umax-record.js');

function recordJob(job) {  // not run(): the emscripten runtime has a global of that name
  const started = performance.now();
  try {
    const answer = JSON.parse(Module.ccall('umax_record', 'string', ['string', 'string', 'number', 'string', 'number', 'number'],
                                           [job.fen, job.moves, job.nodes || 0, job.without || '', job.depth || 0,
                                            job.maxNodes || 0]));
    answer.seconds = (performance.now() - started) / 1000;
    answer.memoryBytes = Module.HEAP8.length;  // the recorder's WebAssembly memory
    let bytes = null;
    if (answer.ok && !answer.stopped) bytes = Module.FS.readFile('/trace.trc').buffer;  // a stopped think keeps none
    postMessage({ type: 'done', result: answer, bytes: bytes }, bytes ? [bytes] : []);
  } catch (failure) {
    postMessage({ type: 'done', result: { ok: false, error: 'the recorder failed: ' + failure } });
  }
}

onmessage = function (event) {
  if (ready) recordJob(event.data);
  else pending = event.data;
};
