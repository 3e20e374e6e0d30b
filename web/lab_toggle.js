// The Lab on a course page: under a topic's live view, "without this idea" runs the worked
// example's search in this page (in the recorder's Web Worker, viz/umax-worker.js) as micro-Max
// searches it, with the example's node budget, and then without the topic's idea (the Lab's
// --without) to the same depth: the think ends after the root's iteration of the draft the first
// search reached, with no budget (the Lab's --depth). Both rows are figures of the same depth, the
// ones `umax-probe --engine readable [--without NAME] --depth D` prints for the position
// (tests/web/test_web.py checks that). A search without an idea can need many times the nodes
// (without alpha-beta or the hash table, tens of times at a few plies more), so the page stops it
// at kCap nodes and says so in its row: a stopped search shows no figures as if it had finished.
(function () {
  'use strict';

  // The most nodes the search without the idea may count in the page (at about 14 trace bytes a
  // node, some 30 MB in the worker; a few seconds in a desktop browser). Checked at the recorder's
  // progress reports, every 65,536 nodes, so a stopped search has counted a little more.
  const kCap = 2000000;
  // micro-Max's draft of a mate score (kMateDraft): a think that found a mate reports it as its depth.
  const kMateDraft = 99;

  // One think in a worker of its own; resolves with the recorder's answer. `progress` hears the
  // recorder's reports (nodes, draft) while it searches.
  function think(job, progress) {
    return new Promise((resolve) => {
      const worker = new Worker('viz/umax-worker.js');
      worker.onmessage = (message) => {
        if (message.data.type === 'progress' && progress) progress(message.data.nodes, message.data.draft);
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
    return element;
  }

  function count(n) { return Number(n).toLocaleString('en-US'); }

  // The table: the nodes and the depth first (what the two rows compare), then the answer.
  function show(table, rows) {
    table.textContent = '';
    const head = table.insertRow();
    for (const name of ['search', 'nodes', 'depth', 'best move', 'score', 'iterations', 'seconds'])
      cell(head, name, true);
    for (const [label, r] of rows) {
      const row = table.insertRow();
      cell(row, label);
      if (!r.ok || r.stopped) {
        // A stopped search's figures are those of an unfinished think: none of them is shown as a result.
        const problem = cell(row, r.ok ? 'stopped at the page\'s cap: ' + count(r.nodes) + ' nodes counted in its ' +
                                         'iteration of draft ' + r.stoppedInDraft + ', depth ' + r.depthAsked +
                                         ' not reached' : r.error);
        problem.colSpan = 6;
        problem.className = 'umax-lab-stopped';
        continue;
      }
      for (const value of [count(r.nodes), r.depth, r.bestmove, r.score, r.iterations, r.searchSeconds.toFixed(3)])
        cell(row, String(value));
    }
  }

  // The same search in a shell, for the figures the page did not finish or to check them.
  function command(box, idea, depth) {
    let text = 'umax-probe --engine readable';
    if (box.dataset.fen) text += " --fen '" + box.dataset.fen + "'";
    if (box.dataset.moves) text += " --moves '" + box.dataset.moves + "'";
    return text + ' --without ' + idea + ' --depth ' + depth;
  }

  // What the two rows say, under the table: the finding in bold, how the two searches were run, and
  // the command that gives the second row in a shell (in a box that scrolls on a narrow screen).
  function verdict(status, box, idea, nodes, depth, cap, whole, lacking) {
    status.textContent = '';
    const finding = document.createElement('b');
    const ratio = lacking.nodes / Math.max(1, whole.nodes);
    finding.textContent = lacking.stopped
        ? 'Without ' + idea + ': more than ' + count(cap) + ' nodes to finish depth ' + depth + ', over ' +
              Math.floor(cap / Math.max(1, whole.nodes)) + ' times micro-Max\'s ' + count(whole.nodes) + '.'
        : 'Without ' + idea + ': ' + count(lacking.nodes) + ' nodes to finish depth ' + depth + ', ' +
              (lacking.nodes === whole.nodes ? 'as many as'
               : ratio >= 1 ? ratio.toFixed(2) + ' times'
                            : Math.max(1, Math.round(100 * (1 - ratio))) + '% fewer than') +
              ' micro-Max\'s ' + count(whole.nodes) + '.';
    status.appendChild(finding);
    // Text, with the option in a code span kept on one line ("--" is a place a line may break).
    const say = (words) => status.appendChild(document.createTextNode(words));
    say(' Both rows are searches to the same depth, ' + depth + ': micro-Max\'s with the example\'s budget of ' +
        count(nodes) + ' nodes (a budget only keeps a new iteration from starting, so a search ends past it), ' +
        'which reached depth ' + depth +
        (whole.depth === kMateDraft ? ' (its last iteration found a mate, so its depth column shows the mate\'s ' +
         'draft, ' + kMateDraft + ')' : '') + ', and the one without ' + idea + ' with that depth and no budget ' +
        '(the Lab\'s ');
    const option = document.createElement('code');
    option.textContent = '--depth ' + depth;
    option.style.whiteSpace = 'nowrap';
    status.appendChild(option);
    let text = ').';
    if (lacking.stopped)
      text += ' The search without ' + idea + ' passed the page\'s cap of ' + count(cap) + ' nodes in its ' +
          'iteration of draft ' + lacking.stoppedInDraft + ', so the page stopped it rather than keep your browser ' +
          'busy, and shows none of its figures. Its figures, from a shell:';
    else if (lacking.bestmove !== whole.bestmove)
      text += ' Its answer differs: ' + lacking.bestmove + ' scored ' + lacking.score + ' against ' +
          whole.bestmove + ' scored ' + whole.score + '. The same in a shell:';
    else if (lacking.score !== whole.score)
      text += ' The same move, ' + whole.bestmove + ', with another score: ' + lacking.score + ' against ' +
          whole.score + '. The same in a shell:';
    else
      text += ' The same in a shell:';
    say(text);
    const shell = document.createElement('code');
    shell.className = 'umax-lab-command';
    shell.textContent = command(box, idea, depth);
    status.appendChild(shell);
  }

  function attach(box) {
    const button = box.querySelector('button');
    const table = box.querySelector('table');
    const status = box.querySelector('.umax-lab-status');
    const nodes = Number(box.dataset.nodes);
    const position = { fen: box.dataset.fen, moves: box.dataset.moves };
    const idea = box.dataset.without;
    button.addEventListener('click', async () => {
      button.disabled = true;
      delete box.dataset.done;
      const cap = Number(box.dataset.cap) || kCap;  // data-cap: a smaller cap (the browser tests)
      status.textContent = 'searching: micro-Max as it is, the example\'s budget of ' + count(nodes) + ' nodes...';
      const whole = await think(Object.assign({ without: '', nodes: nodes }, position));
      let lacking = { ok: false, error: 'not run: micro-Max\'s own search failed' };
      // The depth micro-Max's search completed: its last iteration's draft, or after a mate (reported as
      // kMateDraft) the number of its iterations, each a draft deeper from draft 1.
      const depth = whole.ok ? (whole.depth === kMateDraft ? whole.iterations : whole.depth) : 0;
      if (depth >= 1) {
        status.textContent = 'searching: without ' + idea + ' to depth ' + depth + '...';
        lacking = await think(Object.assign({ without: idea, nodes: 0, depth: depth, maxNodes: cap }, position),
                              (counted, draft) => {
                                status.textContent = 'searching: without ' + idea + ' to depth ' + depth + ': ' +
                                    count(counted) + ' nodes, in draft ' + draft + '...';
                              });
      } else if (whole.ok) {
        lacking = { ok: false, error: 'not run: micro-Max\'s own search completed no iteration to compare at' };
      }
      show(table, [['micro-Max', whole], ['without ' + idea, lacking]]);
      if (whole.ok && lacking.ok) verdict(status, box, idea, nodes, depth, cap, whole, lacking);
      else status.textContent = '';
      // The link under the button now steps through the search without the idea to that depth.
      const link = box.querySelector('a.umax-lab-step');
      if (link && depth >= 1) {
        const query = new URLSearchParams();
        if (position.fen) query.set('fen', position.fen);
        if (position.moves) query.set('moves', position.moves);
        query.set('depth', depth);
        query.set('without', idea);
        link.href = 'viz/index.html?' + query.toString();
        link.textContent = 'step through it without ' + idea + ' to depth ' + depth;
        const note = box.querySelector('.umax-lab-step-note');
        if (note) note.textContent = ' (the second row\'s search)';
      }
      box.dataset.depth = depth;  // for the browser tests
      box.dataset.done = 'true';
      button.disabled = false;
    });
  }

  document.querySelectorAll('.umax-lab[data-without]').forEach(attach);
})();
