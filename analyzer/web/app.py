"""The web application of ``belote serve`` (Starlette): three pages and a small JSON API.

Pages (plain HTML, CSS and JS in ``analyzer/web/static``; no build step, nothing fetched from the
network): ``/`` (or ``/take``) should I take?, ``/review`` a deal card by card (your own, entered by
clicking, or a logged or random one), ``/glossary`` the players' words, ``/reports`` the reports of
the reports folder, each opened under ``/report/NAME/``, and (in a checkout) the project's
documents under ``/docs/``, which a report links to. Every page keeps its state in its URL, with
the command line's option names, and answers a link on load; its words, in English or Dutch,
come from ``GET /api/words?lang=`` (``analyzer.output.words``), what it offers from ``GET
/api/options`` (the variants' rows, house rules, play policies).

API: ``POST /api/take`` and ``POST /api/review`` check their input (400 with the CLI's one line
when it is bad) and start a job (``analyzer.web.jobs``: 503 when the server is busy); ``GET
/api/jobs/ID`` is its progress and its result so far, ``DELETE /api/jobs/ID`` (or ``POST
/api/jobs/ID/cancel``, what a closing page can send) stops it. ``POST /api/deal`` answers at once
with a deal being entered: the calls open next, each trick's winner, the legal cards, or the
refusal of an illegal card with the rule that forbids it. ``GET /api/logs`` lists the deals of
the logs given to ``belote serve --log``, ``GET /api/reports`` the reports.

What it reads: the package's own static files, the reports folder (``StaticFiles``, which
refuses any path that leaves it, symbolic links included) and the logs read once at start. A
page names a log by its number, never a path. A request body is at most ``MAX_BODY`` bytes, of
JSON nested at most ``work.MAX_DEPTH`` levels.

Who may ask (``refusal``): any page the user visits can send a POST here, and a "simple" one
(``Content-Type: text/plain``, a form) reaches the server without the browser asking it first.
So every request but GET, HEAD and OPTIONS, the only ones that start or stop anything, is
refused with 403 when a browser says it comes from another page than ours: an ``Origin`` other
than this server's own (its scheme and the request's Host, which on a loopback address is
checked against DNS rebinding), or a ``Sec-Fetch-Site`` other than ``same-origin``; and with 415
when it carries a body that is not ``application/json`` (which a page of another site can send
only after a preflight, never answered here). A request with neither header is no browser's
cross-site request: every browser sends ``Origin`` with a cross-origin POST or DELETE, so curl
and scripts need no header but the content type.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import markdown
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from analyzer.errors import BeloteError
from analyzer.output import words
from analyzer.web import work
from analyzer.web.jobs import Busy, Jobs, Limits

STATIC = Path(__file__).parent / "static"
MAX_BODY = 128 * 1024  # bytes: a pasted deal record is about 3 KB
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")  # the methods that change nothing here (and a preflight)


def refusal(scope) -> tuple[int, str] | None:
    """(status, one line) when the request of ``scope`` may not change anything: it comes from a
    page of another origin (403), or its body is not declared JSON (415); None when it may."""
    if scope["method"] in SAFE_METHODS:
        return None
    headers = Headers(scope=scope)
    own = f"{scope['scheme']}://{headers.get('host', '')}".lower()
    origin = headers.get("origin")
    site = headers.get("sec-fetch-site")
    if origin is not None and origin.strip().lower() != own:
        return 403, (f"refused: this request comes from a page of another site ({origin[:80]}); ask from this "
                     f"server's own pages, {own}/")
    if site is not None and site.strip().lower() != "same-origin":
        return 403, (f"refused: this request comes from a page of another site (Sec-Fetch-Site: {site[:20]}); ask "
                     f"from this server's own pages, {own}/")
    kind = headers.get("content-type")
    has_body = headers.get("content-length", "0").strip() not in ("", "0") or "transfer-encoding" in headers
    if has_body and (kind or "").split(";")[0].strip().lower() != "application/json":
        said = f"this one says {kind[:40]}" if kind else "this one says none"
        return 415, f"send the request's body as JSON, with Content-Type: application/json ({said})"
    return None


class _SameOrigin:
    """ASGI middleware: ``refusal``'s answer, before any route sees the request."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        refused = refusal(scope) if scope["type"] == "http" else None
        if refused is None:
            return await self.app(scope, receive, send)

        status, message = refused
        await JSONResponse({"error": message}, status_code=status)(scope, receive, send)


def make_app(reports: Path | None = None, logs: list | None = None, limits: Limits = Limits(),
             hosts: list[str] | None = None):
    """The application. ``reports``: the folder of reports to serve; ``logs``: ``[(path, records)]``
    read and checked by the caller (``analyzer.output.deallog.read_log``); ``hosts``: the host names
    a request may carry (against DNS rebinding; None: any)."""
    jobs = Jobs(limits)
    logs = list(logs or [])

    def error(message: str, status: int = 400) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status)

    async def body(request: Request) -> dict:
        size = request.headers.get("content-length")
        if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
            raise _TooLarge()
        data = b""
        async for piece in request.stream():
            data += piece
            if len(data) > MAX_BODY:
                raise _TooLarge()
        form = work.read_json(data or b"{}", "the request")
        if not isinstance(form, dict):
            raise BeloteError("the request must be a JSON object")
        return form

    def asking(kind, make):
        async def endpoint(request: Request):
            try:
                form = await body(request)
                job_work = await run_in_threadpool(make, form)  # checks only; the work runs in the job
                job = jobs.submit(kind, job_work)
            except _TooLarge:
                return error(f"the request is larger than {MAX_BODY:,} bytes", 413)
            except Busy as e:
                return error(str(e), 503)
            except BeloteError as e:
                return error(str(e))
            return JSONResponse({"job": job.id}, status_code=202)

        return endpoint

    async def deal(request: Request):
        try:
            form = await body(request)
            return JSONResponse(await run_in_threadpool(work.deal_view, form))
        except _TooLarge:
            return error(f"the request is larger than {MAX_BODY:,} bytes", 413)
        except BeloteError as e:
            return error(str(e))

    async def bot(request: Request):
        try:
            form = await body(request)
            return JSONResponse(await run_in_threadpool(work.bot_view, form, logs))
        except _TooLarge:
            return error(f"the request is larger than {MAX_BODY:,} bytes", 413)
        except BeloteError as e:
            return error(str(e))

    async def page_words(request: Request):
        lang = request.query_params.get("lang", "en")
        if lang not in words.LANGS:
            return error(f"lang must be one of {', '.join(words.LANGS)}, not {lang[:20]!r}")
        return JSONResponse(words.page_words(lang))

    async def options(request: Request):
        return JSONResponse(await run_in_threadpool(work.options_view))

    async def doc(request: Request):
        return _doc(request.path_params["name"])

    take = asking("take", work.take_query)
    review = asking("review", lambda form: work.review_query(form, logs))

    async def job_view(request: Request):
        v = jobs.get(request.path_params["id"])
        return error("no such job (finished long ago, or the server restarted)", 404) if v is None else JSONResponse(v)

    async def job_cancel(request: Request):
        if not jobs.cancel(request.path_params["id"]):
            return error("no such job", 404)
        return JSONResponse({"cancelled": True})

    async def log_list(request: Request):
        return JSONResponse([{"log": i, "name": p.name, "deals": [
            {"deal": r.get("deal"), "variant": r.get("variant"), "players": r.get("players"),
             "outcome": r.get("outcome")} for r in records[:1000]]} for i, (p, records) in enumerate(logs)])

    async def report_list(request: Request):
        return JSONResponse(work.report_list(reports) if reports is not None else [])

    async def status(request: Request):
        return JSONResponse({"jobs": jobs.counts(), "limits": limits.__dict__})

    def page(name):
        async def endpoint(request: Request):
            return FileResponse(STATIC / name, media_type="text/html")

        return endpoint

    routes = [
        Route("/", page("take.html")),
        Route("/take", page("take.html")),
        Route("/review", page("review.html")),
        Route("/reports", page("reports.html")),
        Route("/glossary", page("glossary.html")),
        Route("/api/take", take, methods=["POST"]),
        Route("/api/review", review, methods=["POST"]),
        Route("/api/deal", deal, methods=["POST"]),
        Route("/api/bot", bot, methods=["POST"]),
        Route("/api/words", page_words),
        Route("/api/options", options),
        Route("/api/jobs/{id}", job_view, methods=["GET"]),
        Route("/api/jobs/{id}", job_cancel, methods=["DELETE"]),
        Route("/api/jobs/{id}/cancel", job_cancel, methods=["POST"]),
        Route("/api/logs", log_list),
        Route("/api/reports", report_list),
        Route("/api/status", status),
        Mount("/static", StaticFiles(directory=STATIC)),
    ]
    if reports is not None:
        routes.append(Mount("/report", StaticFiles(directory=reports, html=True, check_dir=False)))
    if DOCS.is_dir():  # a checkout: a report's links to the docs, relative (../../docs/) or absolute, resolve here
        routes.append(Route("/docs/{name:path}", doc))
        if DOCS.as_posix() != "/docs" and DOCS.is_absolute():
            routes.append(Route(DOCS.as_posix() + "/{name:path}", doc))
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=hosts)] if hosts else []
    middleware.append(Middleware(_SameOrigin))  # after the Host check: it compares Origin with Host

    async def not_found(request, exc):
        return Response("not found", status_code=404, media_type="text/plain")

    app = Starlette(routes=routes, middleware=middleware, exception_handlers={404: not_found})
    app.state.jobs = jobs
    return app


class _TooLarge(Exception):
    pass


DOCS = Path(__file__).resolve().parents[2] / "docs"  # the project's documents (a checkout has them; a wheel not)
_DOC_NAME = re.compile(r"(?:images/)?[A-Za-z0-9_.-]+\.(?:md|png)")


def _doc(name: str):
    """One of the project's documents (``docs/*.md`` as a web page, ``docs/images/*.png``); 404 for
    anything else: a name is matched whole, so no path leaves the folder."""
    path = DOCS / name
    if not _DOC_NAME.fullmatch(name) or not path.is_file() or path.is_symlink():
        return Response("not found", status_code=404, media_type="text/plain")
    if path.suffix == ".png":
        return FileResponse(path, media_type="image/png")

    body = markdown.markdown(path.read_text(encoding="utf-8"), extensions=["tables", "fenced_code", "toc"])
    return HTMLResponse(f"<!doctype html><html><head><meta charset=utf-8><meta name=viewport "
                        f"content='width=device-width, initial-scale=1'><title>{html.escape(name)}</title>"
                        f"<link rel=stylesheet href='/static/style.css'></head><body><main class=doc>{body}</main>"
                        f"</body></html>")


__all__ = ["make_app", "refusal", "MAX_BODY", "STATIC"]
