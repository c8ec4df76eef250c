
(function () {
  function rowsOf(table) { return Array.prototype.slice.call(table.tBodies); }
  // A row's text with its details still waiting in their <template> (see table.deferred).
  function searchable(body) {
    var held = Array.prototype.map.call(body.querySelectorAll('template'),
      function (t) { return t.content.textContent; });
    return (body.textContent + ' ' + held.join(' ')).toLowerCase();
  }
  // The same text read from a row's markup not yet drawn: tags dropped, the page's escapes read back.
  var ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'" };
  function markupText(markup) {
    return markup.replace(/<[^>]*>/g, '').replace(/&(amp|lt|gt|quot|#x27);/g,
      function (all, name) { return ENTITIES[name]; }).toLowerCase();
  }
  function unpack(block) {
    var chars = atob(block.data), bytes = new Uint8Array(chars.length);
    for (var i = 0; i < chars.length; i++) { bytes[i] = chars.charCodeAt(i); }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Response(stream).text().then(JSON.parse);
  }
  function built(markup) {
    var holder = document.createElement('template');
    holder.innerHTML = '<table>' + markup + '</table>';
    return holder.content.firstChild.tBodies[0];
  }
  // A row's deferred details, first opened: their <template> becomes a row under the case's own.
  document.addEventListener('toggle', function (event) {
    var details = event.target;
    if (!details.classList || !details.classList.contains('deferred')) { return; }
    var row = details.shownRow, held = details.querySelector(':scope > template');
    if (!row && details.open && held) {
      row = details.shownRow = document.createElement('tr');
      row.className = 'more';
      var cell = row.insertCell();
      cell.colSpan = details.closest('tr').cells.length;
      cell.appendChild(held.content);
      details.removeChild(held);
      details.closest('tbody').appendChild(row);
    }
    if (row) { row.hidden = !details.open; }
  }, true);
  function setup(table) {
    var id = table.id, controls = document.querySelectorAll('[data-for="' + id + '"]');
    var count = document.getElementById(id + '-count'), pager = document.getElementById(id + '-pager');
    var block = document.getElementById(id + '-rows'), packed = block ? JSON.parse(block.textContent) : null;
    var nodes = rowsOf(table), drawn = nodes.length, held = [], texts = null;
    var size = Number(table.getAttribute('data-page-size')) || drawn || 1;
    var state = {}, matching = null, page = 0, ready = !packed, pending = false;
    function total() { return drawn + (ready ? held.length : packed.rows); }
    function everyRow() { var all = []; for (var i = 0; i < total(); i++) { all.push(i); } return all; }
    function value(i, key) {
      return (i < drawn ? nodes[i].getAttribute('data-' + key) : held[i - drawn][0][key]) || '';
    }
    function textOf(i) { return i < drawn ? searchable(nodes[i]) : markupText(held[i - drawn][1]); }
    function node(i) { return nodes[i] || (nodes[i] = built(held[i - drawn][1])); }
    function counted() {
      if (!count) { return; }
      count.textContent = ready ? matching.length + ' of ' + total() + ' shown'
        : 'loading the ' + total() + ' rows\u2026';
    }
    function paged() {
      if (!pager) { return; }
      var pages = Math.max(1, Math.ceil(matching.length / size)), first = page * size;
      pager.hidden = matching.length <= size;
      pager.querySelector('span').textContent = 'rows ' + Math.min(first + 1, matching.length) + '\u2013' +
        Math.min(first + size, matching.length) + ' of ' + matching.length + ', page ' + (page + 1) +
        ' of ' + pages;
      pager.querySelectorAll('button').forEach(function (b) {
        var to = b.getAttribute('data-page'), back = to === 'first' || to === 'prev';
        b.setAttribute('aria-disabled', String(back ? page === 0 : page === pages - 1));
      });
    }
    function draw() {
      var pages = Math.max(1, Math.ceil(matching.length / size));
      page = Math.min(Math.max(page, 0), pages - 1);
      rowsOf(table).forEach(function (body) { table.removeChild(body); });
      matching.slice(page * size, (page + 1) * size).forEach(function (i) { table.appendChild(node(i)); });
      counted();
      paged();
    }
    function chipped() {
      var chip = document.getElementById(id + '-cell');
      if (chip) {
        chip.hidden = !(state.expect || state.observed);
        chip.querySelector('span').textContent = 'expected ' + (state.expect || 'any') +
          ' \u00d7 observed ' + (state.observed || 'any');
      }
    }
    function apply() {
      chipped();
      if (!ready) { pending = true; return; }
      var q = (state.q || '').toLowerCase();
      if (q && texts === null) { texts = everyRow().map(textOf); }
      matching = everyRow().filter(function (i) {
        return Object.keys(state).every(function (key) {
          if (key === 'q' || !state[key]) { return true; }
          return value(i, key).split(' ').indexOf(state[key]) >= 0;
        }) && (!q || texts[i].indexOf(q) >= 0);
      });
      page = 0;
      draw();
    }
    function loaded() {
      ready = true;
      matching = everyRow();
      table.setAttribute('data-ready', '');
      performance.mark('skillscope:' + id + ':ready');
      if (pending) { apply(); } else { counted(); paged(); }
    }
    controls.forEach(function (el) {
      var key = el.getAttribute('data-key');
      el.addEventListener(el.tagName === 'BUTTON' ? 'click' : 'input', function () {
        if (key === 'clear') {
          state = {};
          controls.forEach(function (c) { if (c.tagName !== 'BUTTON') { c.value = ''; } });
          if (location.hash.indexOf('#' + id + ':') === 0) { history.replaceState(null, '', '#' + id); }
        } else { state[key] = el.value; }
        apply();
      });
    });
    if (pager) {
      pager.addEventListener('click', function (event) {
        var to = event.target.getAttribute('data-page');
        if (!to || !ready) { return; }
        page = to === 'first' ? 0 : to === 'prev' ? page - 1 : to === 'next' ? page + 1 : Infinity;
        draw();
        if (table.getBoundingClientRect().top < 0) { table.scrollIntoView(); }
      });
    }
    function fromHash() {
      var hash = location.hash;
      if (hash.indexOf('#' + id + ':') !== 0) { return false; }
      delete state.expect; delete state.observed;
      hash.slice(id.length + 2).split('&').forEach(function (pair) {
        var kv = pair.split('=');
        if (kv.length === 2) { state[decodeURIComponent(kv[0])] = decodeURIComponent(kv[1]); }
      });
      apply();
      table.scrollIntoView();
      return true;
    }
    window.addEventListener('hashchange', fromHash);
    if (!packed) { loaded(); }
    else if (!window.DecompressionStream) {
      if (count) { count.textContent = 'this browser cannot unpack the other ' + packed.rows + ' rows'; }
    } else {
      counted();
      unpack(packed).then(function (rows) { held = rows; loaded(); });
    }
    fromHash();
  }
  document.querySelectorAll('table[data-filterable]').forEach(setup);
})();
