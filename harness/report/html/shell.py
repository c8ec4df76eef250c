"""The page every HTML report shares: one self-contained document (inline CSS, a small inline script,
inline SVG; no network, so it opens from a CI artifact or file://), light and dark, keyboard-usable.

`page(title, sections)` wraps already-rendered sections; `text` is the one way a value enters the page.
The history page uses the same two, so both read alike.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable
from html import escape

from harness.printable import escaped

STYLE = """
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0;
  --panel: #f6f8fa; --pass: #1a7f37; --fail: #cf222e; --error: #9a6700; --accent: #0969da;
  --pass-bg: #dafbe1; --fail-bg: #ffebe9; --error-bg: #fff8c5; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --panel: #151b23;
    --pass: #3fb950; --fail: #f85149; --error: #d29922; --accent: #4493f8;
    --pass-bg: #12261e; --fail-bg: #2d1214; --error-bg: #272115; }
}
* { box-sizing: border-box; }
body { background: var(--bg); color: var(--fg); font: 14px/1.45 system-ui, sans-serif; margin: 0 auto;
  max-width: 80em; padding: 1em 1.5em 4em; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
h1 { font-size: 1.6em; margin: .2em 0; } h2 { font-size: 1.25em; margin: 1.6em 0 .5em; }
h3 { font-size: 1.05em; margin: 1em 0 .3em; }
.status { display: inline-block; padding: .1em .6em; border-radius: 1em; font-weight: 700;
  text-transform: uppercase; letter-spacing: .04em; }
.status.pass { background: var(--pass-bg); } .status.fail { background: var(--fail-bg); }
.status.error, .status.interrupted, .status.blocked { background: var(--error-bg); }
.pass { color: var(--pass); } .fail, .regression { color: var(--fail); }
.error, .blocked, .not-run, .interrupted, .flaky { color: var(--error); }
.improvement { color: var(--pass); } .muted { color: var(--muted); }
.gate { font-size: 1.1em; margin: .4em 0; }
.figures { display: flex; flex-wrap: wrap; gap: .8em; margin: .8em 0; padding: 0; list-style: none; }
.figures li { background: var(--panel); border: 1px solid var(--line); border-radius: 6px;
  padding: .4em .9em; min-width: 8em; }
.figures b { display: block; font-size: 1.35em; }
.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(16em, 1fr)); gap: .1em 1.5em;
  margin: .5em 0; }
.facts div { overflow-wrap: anywhere; } .facts span { color: var(--muted); }
.facts time { white-space: nowrap; }
.notice { border-left: 4px solid var(--error); background: var(--error-bg); padding: .5em .9em; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: .3em .6em; text-align: left; vertical-align: top; }
th { background: var(--panel); position: sticky; top: 0; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.fixed th.num { white-space: normal; }
tbody.case tr:first-child:not(:last-child) td { border-bottom: 0; } tr.more td { padding-top: 0; }
table.fixed { table-layout: fixed; } table.fixed td { overflow-wrap: anywhere; }
td.wrap { overflow-wrap: anywhere; max-width: 36em; } .wrap-cells td { overflow-wrap: anywhere; }
.path > span { white-space: nowrap; }
pre { background: var(--panel); padding: .7em; overflow-x: auto; white-space: pre-wrap; margin: .3em 0; }
details > summary { cursor: pointer; color: var(--accent); }
.controls { display: flex; flex-wrap: wrap; gap: .6em 1em; align-items: center; margin: .5em 0; }
.controls input[type=search] { min-width: 18em; }
.pager { display: flex; flex-wrap: wrap; gap: .5em; align-items: center; margin: .6em 0; }
.pager[hidden] { display: none; } button[aria-disabled=true] { opacity: .5; cursor: default; }
input, select, button { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line);
  border-radius: 4px; padding: .2em .5em; }
button { cursor: pointer; }
svg text { fill: var(--fg); font: 12px system-ui, sans-serif; }
svg .cell-zero { fill: var(--panel); } svg .cell-hit { fill: var(--pass); }
svg .cell-miss { fill: var(--fail); } svg .cell-error { fill: var(--error); }
svg a:focus-visible rect { stroke: var(--accent); stroke-width: 3; }
.bar { display: inline-block; height: .7em; background: var(--accent); vertical-align: middle; }
.state-regressed, .state-flaky { font-weight: 600; } .state-regressed { color: var(--fail); }
.state-flaky { color: var(--error); } .state-improved { color: var(--pass); }
.runs { display: flex; flex-wrap: wrap; gap: 2px; }
.run { width: .8em; height: 1.2em; border-radius: 2px; background: var(--muted); }
.run.pass { background: var(--pass); } .run.fail { background: var(--fail); }
.run.error, .run.blocked { background: var(--error); }
.trends { display: grid; grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); gap: 1em; }
figure { margin: 0; border: 1px solid var(--line); border-radius: 6px; padding: .6em; }
figcaption { font-weight: 600; } svg .trend { fill: none; stroke: var(--accent); stroke-width: 2; }
svg .dot { fill: var(--accent); } svg .axis { stroke: var(--line); }
"""

# Filters each table marked data-filterable: its selects and search box, and a matrix cell's link
# (#cases:expect=a&observed=b), choose the rows that match, and one page of them is in the table at a
# time (table.PAGE_ROWS); opens a row's deferred details. Rows past the first page arrive packed in a
# data block (table.later_pages); their markup, which the page itself wrote, becomes a row when shown.
SCRIPT = """
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
        : 'loading the ' + total() + ' rows\\u2026';
    }
    function paged() {
      if (!pager) { return; }
      var pages = Math.max(1, Math.ceil(matching.length / size)), first = page * size;
      pager.hidden = matching.length <= size;
      pager.querySelector('span').textContent = 'rows ' + Math.min(first + 1, matching.length) + '\\u2013' +
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
          ' \\u00d7 observed ' + (state.observed || 'any');
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
"""


def text(value: object) -> str:
    """Markup-safe and terminal-safe: a report's text can neither open a tag nor hide a character."""
    return escape(escaped(str(value)), quote=True)


def page(title: str, sections: Iterable[str], filters: bool = True) -> str:
    """A whole page: `title` (plain text) and the already-rendered HTML `sections`, in order.
    `filters`: whether it carries the script its filterable tables need; a page without one runs none."""
    body = "\n".join(sections)
    script = f"\n<script>{SCRIPT}</script>" if filters else ""
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta http-equiv="Content-Security-Policy" content="{policy(STYLE, SCRIPT if filters else None)}">'
        f"<title>{text(title)}</title><style>{STYLE}</style></head>\n"
        f"<body>\n{body}{script}\n</body></html>\n"
    )


def policy(style: str, script: str | None) -> str:
    """The page's Content-Security-Policy: no request may leave it (data: images only), and only its own
    stylesheet and script apply, each allowed by its hash. Escaping keeps hostile text inert; this is the
    second wall, should escaping ever fail: an inline script or style the page did not write never runs,
    and neither does an event-handler attribute."""
    scripts = source_hash(script) if script is not None else "'none'"
    return (
        f"default-src 'none'; style-src {source_hash(style)}; script-src {scripts}; img-src data:; "
        "base-uri 'none'; form-action 'none'"
    )


def source_hash(content: str) -> str:
    """The CSP source allowing exactly one inline element: the SHA-256 of its text as the browser reads it."""
    return f"'sha256-{base64.b64encode(hashlib.sha256(content.encode('utf-8')).digest()).decode('ascii')}'"


def section(heading: str, inner: str, anchor: str = "") -> str:
    """A titled part of the page; `inner` is rendered HTML."""
    where = f' id="{text(anchor)}"' if anchor else ""
    return f"<section{where}><h2>{text(heading)}</h2>\n{inner}\n</section>"


def figures(items: Iterable[tuple[str, str]]) -> str:
    """Headline figures as tiles: (label, value), both plain text."""
    tiles = "".join(f"<li><b>{text(value)}</b>{text(label)}</li>" for label, value in items)
    return f'<ul class="figures">{tiles}</ul>' if tiles else ""


def simple_table(headers: Iterable[str], rows: Iterable[Iterable[str]], numeric: Iterable[int] = ()) -> str:
    """A plain table of plain-text cells; `numeric` column indexes align right."""
    right = set(numeric)
    head = "".join(
        f'<th{" class=num" if i in right else ""} scope="col">{text(h)}</th>' for i, h in enumerate(headers)
    )
    body = "".join(
        "<tr>"
        + "".join(f"<td{' class=num' if i in right else ''}>{text(c)}</td>" for i, c in enumerate(row))
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
