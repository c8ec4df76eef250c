"""The shell every HTML page shares (the history page's too): one self-contained document that opens
from a CI artifact or file://; `text` is the one way a value enters it."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable
from html import escape

from harness.files import packaged_text
from harness.printable import escaped

# The page's stylesheet and script, kept as files of their own: the CSP hashes each exactly as written.
STYLE = packaged_text("data", "page.css")
# Filters each table marked data-filterable (its selects, search box and a matrix cell's link), pages its
# rows (table.PAGE_ROWS; rows past the first arrive packed), and opens a row's deferred details.
SCRIPT = packaged_text("data", "page.js")


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
    """The page's CSP, the wall behind escaping: no request leaves the page, and only its own stylesheet
    and script (allowed by their hashes) apply."""
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


def simple_table(
    headers: Iterable[str], rows: Iterable[Iterable[str]], numeric: Iterable[int] = (), rendered: bool = False
) -> str:
    """A plain table of plain-text cells (`rendered`: of rendered HTML); `numeric` column indexes align
    right."""
    right = set(numeric)
    head = "".join(
        f'<th{" class=num" if i in right else ""} scope="col">{text(h)}</th>' for i, h in enumerate(headers)
    )
    body = "".join(
        "<tr>"
        + "".join(
            f"<td{' class=num' if i in right else ''}>{c if rendered else text(c)}</td>"
            for i, c in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


Box = tuple[int, int, int]  # a chart's width, height and padding, in its viewBox's units


def chart(label: str, box: Box, inner: str) -> str:
    """An SVG chart of rates over 0..1 (the sweep's curve, history's trends): its lines at 0 and 1, then
    `inner`, drawn with `level`."""
    width, height, pad = box
    bottom, top = level(box, 0), level(box, 1)
    return (
        f'<svg role="img" aria-label="{text(label)}" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}"><line class="axis" x1="{pad}" y1="{bottom}" x2="{width - pad}" y2="{bottom}"/>'
        f'<line class="axis" x1="{pad}" y1="{top}" x2="{width - pad}" y2="{top}"/>{inner}</svg>'
    )


def level(box: Box, rate: float) -> float:
    """Where a rate sits in a chart: 1 at its top padding, 0 at its bottom."""
    _, height, pad = box
    return round(height - pad - rate * (height - 2 * pad), 1)
