// The Lab on a course page: under a topic's live view, "without this idea" runs the worked
// example's search twice in this page (in the recorder's Web Worker, viz/umax-worker.js), once as
// micro-Max searches and once without the topic's idea (the Lab's --without), and shows the two
// results side by side. The figures are the ones `umax-probe --engine readable --without NAME`
// prints for the same position and budget (tests/web/test_web.py checks that).
(function () {
  'use strict';

  // One think in a worker of its own; resolves with the recorder's answer.
  function think(job) {
    return new Promise((resolve) => {
      const worker = new Worker('viz/umax-worker.js');
      worker.onmessage = (message) => {
        if (message.data.type !== 'done') return;
        worker.terminate();
        resolve(message.data.result);
      };
      worker.onerror = (error) => {
        worker.terminate();
        resolve({ ok: false, error: 'the recorder failed: ' + (error.message || 'worker error') });
      };
      worker.postMessage(job);
    });
  }

  function cell(row, text, header) {
    const element = document.createElement(header ? 'th' : 'td');
    element.textContent = text;
    row.appendChild(element);
  }

  function show(table, rows) {
    table.textContent = '';
    const head = table.insertRow();
    for (const name of ['search', 'best move', 'score', 'nodes', 'depth', 'iterations', 'seconds'])
      cell(head, name, true);
    for (const [label, r] of rows) {
      const row = table.insertRow();
      cell(row, label);
      if (!r.ok) {
        const problem = document.createElement('td');
        problem.colSpan = 6;
        problem.textContent = r.error;
        row.appendChild(problem);
        continue;
      }
      for (const value of [r.bestmove, r.score, r.nodes.toLocaleString('en-US'), r.depth, r.iterations,
                           r.searchSeconds.toFixed(3)])
        cell(row, String(value));
    }
  }

  // The two rows share a node budget, not a depth: the search that needs more nodes per ply shows
  // fewer nodes here only because it stopped shallower. Say so, with the two depths.
  function sameBudget(nodes, idea, whole, lacking) {
    const text = 'Both searches had the same budget, ' + nodes.toLocaleString('en-US') +
        ' nodes (a think overshoots it: only the start of an iteration looks at the budget). ';
    if (lacking.depth === whole.depth)
      return text + 'Both reached depth ' + whole.depth + ', so their node counts compare directly.';
    const fewer = lacking.depth < whole.depth;
    return text + 'Compare the depth column, not the nodes: with the same budget the search without ' + idea +
        ' got ' + Math.abs(whole.depth - lacking.depth) + (Math.abs(whole.depth - lacking.depth) === 1 ? ' ply ' : ' plies ') +
        (fewer ? 'less' : 'more') + ' deep (' + lacking.depth + ' against ' + whole.depth + '). The nodes each ' +
        'needs to finish the same depth are in the exercise below (umax-probe --depth) and the Lab\'s figure.';
  }

  function attach(box) {
    const button = box.querySelector('button');
    const table = box.querySelector('table');
    const status = box.querySelector('.umax-lab-status');
    const job = { fen: box.dataset.fen, moves: box.dataset.moves, nodes: Number(box.dataset.nodes) };
    const idea = box.dataset.without;
    button.addEventListener('click', async () => {
      button.disabled = true;
      status.textContent = 'searching: micro-Max as it is...';
      const whole = await think(Object.assign({ without: '' }, job));
      status.textContent = 'searching: without ' + idea + '...';
      const lacking = await think(Object.assign({ without: idea }, job));
      show(table, [['micro-Max', whole], ['without ' + idea, lacking]]);
      status.textContent = whole.ok && lacking.ok ? sameBudget(job.nodes, idea, whole, lacking) : '';
      box.dataset.done = 'true';  // for the browser tests
      button.disabled = false;
    });
  }

  document.querySelectorAll('.umax-lab[data-without]').forEach(attach);
})();
