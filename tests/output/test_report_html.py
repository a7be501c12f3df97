"""The report as a web page (``index.html``, ``analyzer.output.html``), opened in a headless
Chromium (Debian's ``chromium``, which ``make test`` installs): its plots load from the folder,
it holds the same findings and sections as ``index.md``, and its tables sort by a click."""

import re
import shutil
import subprocess

import pytest

from analyzer.output.html import anchor_text, to_html

pytestmark = pytest.mark.slow  # a whole report and a browser


def _chromium():
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    assert exe, "Debian's chromium is not installed: make test installs it (apt-get install chromium)"
    return exe


def _dom(path, *flags):
    proc = subprocess.run([_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=10000",
                           *flags, "--dump-dom", path.resolve().as_uri()], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def test_the_html_report_opens_in_a_browser_with_every_plot(shared_report):
    folder = shared_report.path
    page = folder / "index.html"
    md = (folder / "index.md").read_text()
    dom = _dom(page)
    body = re.search(r"<body([^>]*)>", dom).group(1)
    shown = int(re.search(r'data-images="(\d+)"', body).group(1))
    broken = int(re.search(r'data-broken="(\d+)"', body).group(1))
    pictures = set(re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", md))
    assert broken == 0 and shown >= len(pictures) > 10
    for png in pictures:
        assert f'src="{png}"' in dom
    assert 'id="what-a-player-takes-away"' in dom
    for heading in re.findall(r"^## (\d+\. .+)$", md, re.M):  # every section's anchor, as the markdown links it
        assert f'id="{anchor_text(heading)}"' in dom
        assert f'href="#{anchor_text(heading)}"' in dom


def test_a_table_sorts_by_the_clicked_column(tmp_path):
    """Numbers sort as numbers (the first number of a cell: +9.5 before +10.2, -3.0 first)."""
    md = "| call | gain |\n|---|---|\n| a | +10.2 ± 1.0 |\n| b | -3.0 ± 1.0 |\n| c | +9.5 [8.0, 11.0] |\n"
    page = tmp_path / "t.html"
    page.write_text(to_html(md, "t").replace("</script>", "document.querySelectorAll('th')[1].click();</script>"))
    dom = _dom(page)
    order = re.findall(r"<td>([abc])</td>", dom)
    assert order == ["b", "c", "a"], order
