"""The report as a web page: ``index.html`` beside ``index.md``, the same content, its plots
shown in the page, its tables sortable by a click on a column's heading, opened from the folder
with no tool and no network (one file of HTML with its style and script inline; the plots are
the PNG files beside it).

Written from ``index.md`` by the ``markdown`` package (tables, fenced code and heading anchors
that are the markdown's own: ``analyzer.output.report.anchor``), so the two cannot differ.
When the page has loaded, its script counts the pictures shown and those that failed to load
into the ``data-images`` and ``data-broken`` attributes of ``<body>``: the tests read them
through a headless browser.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import markdown

STYLE = """
body { font-family: system-ui, sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.45;
       color: #1b1b1b; }
h1, h2, h3, h4 { line-height: 1.2; }
h2 { border-bottom: 1px solid #ddd; padding-bottom: .2rem; margin-top: 2.2rem; }
table { border-collapse: collapse; margin: .8rem 0; font-size: .88rem; display: block; overflow-x: auto; }
th, td { border: 1px solid #ccc; padding: .25rem .5rem; }
th { background: #f3f3f3; cursor: pointer; position: sticky; top: 0; }
th.sorted-asc::after { content: " \\25B2"; } th.sorted-desc::after { content: " \\25BC"; }
tr:nth-child(even) td { background: #fafafa; }
img { max-width: 100%; height: auto; }
code { background: #f4f4f4; padding: 0 .2rem; }
pre { background: #f4f4f4; padding: .6rem; overflow-x: auto; }
"""

# sort a table by the clicked column (numbers as numbers: the first number of a cell, so
# "+12.3 ± 1.4" and "45.1% [43.0, 47.2]" sort by their value), and count the pictures shown
SCRIPT = """
function cellKey(td) {
  const t = td.textContent.trim();
  const m = t.replace(/\\u2212/g, '-').replace(/,/g, '').match(/^[+-]?\\d+(\\.\\d+)?/);
  return m ? [0, parseFloat(m[0])] : [1, t.toLowerCase()];
}
function sortBy(th) {
  const table = th.closest('table'), body = table.tBodies[0];
  const col = Array.prototype.indexOf.call(th.parentNode.children, th);
  const asc = !th.classList.contains('sorted-asc');
  th.parentNode.querySelectorAll('th').forEach(h => h.classList.remove('sorted-asc', 'sorted-desc'));
  th.classList.add(asc ? 'sorted-asc' : 'sorted-desc');
  const rows = Array.from(body.rows);
  rows.sort((a, b) => {
    const x = cellKey(a.cells[col]), y = cellKey(b.cells[col]);
    const c = x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0);
    return asc ? c : -c;
  });
  rows.forEach(r => body.appendChild(r));
}
document.querySelectorAll('th').forEach(th => th.addEventListener('click', () => sortBy(th)));
window.addEventListener('load', () => {
  const imgs = Array.from(document.images);
  document.body.dataset.images = imgs.filter(i => i.complete && i.naturalWidth > 0).length;
  document.body.dataset.broken = imgs.filter(i => !(i.complete && i.naturalWidth > 0)).length;
});
"""


def anchor_text(title: str) -> str:
    """The anchor of a heading ``title`` by the rule the markdown's links use (GitHub's: lower
    case, punctuation dropped, spaces to dashes)."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def to_html(md_text: str, title: str) -> str:
    """The page for the markdown ``md_text``."""
    body = markdown.markdown(md_text, extensions=["tables", "fenced_code", "toc"],
                             extension_configs={"toc": {"slugify": lambda v, sep: anchor_text(v)}})
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{html.escape(title)}</title>\n"
            f"<style>{STYLE}</style>\n</head>\n<body>\n{body}\n<script>{SCRIPT}</script>\n</body>\n</html>\n")


def write_html(folder: Path) -> Path:
    """``index.html`` from the folder's ``index.md``; returns its path."""
    folder = Path(folder)
    md_text = (folder / "index.md").read_text()
    first = md_text.splitlines()[0].lstrip("# ").strip() if md_text else "Belote analyser report"
    path = folder / "index.html"
    path.write_text(to_html(md_text, first))
    return path


__all__ = ["to_html", "write_html", "anchor_text"]
