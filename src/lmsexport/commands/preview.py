"""`lmsexport preview`: the preview site, written once, opened in a browser, or rebuilt on every change.

The site folder holds a list of the files this command wrote (`.lmsexport-preview`), so that a
rebuild removes the pages of quizzes that are gone and nothing else, and a fingerprint of the
build (`.lmsexport-build`). With --watch the folder is also served on this machine only
(127.0.0.1): pages served so poll the fingerprint and reload themselves after each build.
"""

from __future__ import annotations

import hashlib
import sys
import tempfile
from pathlib import Path

from ..loader import load_quiz
from ..output import OutputError, check_output_folder, read_if_exists, remove_stale_temporaries, write_atomic
from ..preview.site import INDEX, build_site
from ..report import counts, plural, print_diagnostics
from ..startup import release_collector
from ..writers.shared import ExportOptions
from .common import quiz_files

MANIFEST = ".lmsexport-preview"
BUILD = ".lmsexport-build"  # the page script polls it (see preview.js); the same content, the same fingerprint


def _previous_files(out: Path) -> list[str]:
    listed = read_if_exists(out / MANIFEST)
    return listed.decode("utf-8").splitlines() if listed else []


def write_site(out: Path, files: dict[str, bytes]) -> None:
    """Write what changed, remove what this command wrote before and no longer produces."""
    remove_stale_temporaries(out)
    for name in sorted(set(_previous_files(out)) - set(files)):
        path = out / name
        if Path(name).is_absolute() or ".." in Path(name).parts or not path.is_file():  # only what lies inside
            continue
        path.unlink()
        for folder in path.parents:
            if folder == out or not folder.is_relative_to(out) or any(folder.iterdir()):
                break
            folder.rmdir()
    for name in sorted(files):
        path = out / name
        if read_if_exists(path) != files[name]:
            write_atomic(path, files[name])
    write_atomic(out / MANIFEST, "".join(f"{name}\n" for name in sorted(files)).encode("utf-8"))
    fingerprint = hashlib.sha256()
    for name in sorted(files):
        fingerprint.update(hashlib.sha256(name.encode("utf-8")).digest() + hashlib.sha256(files[name]).digest())
    stamp = fingerprint.hexdigest().encode("ascii")
    if read_if_exists(out / BUILD) != stamp:
        write_atomic(out / BUILD, stamp)


def build_once(sources: list[Path], out: Path, formats: tuple[str, ...], options: ExportOptions, max_media_bytes: int) -> int:
    files, problems = quiz_files(sources)
    print_diagnostics(problems, "text", sys.stderr)
    site = build_site([load_quiz(path, max_media_bytes) for path in files], options, formats)
    print_diagnostics(site.diagnostics, "text", sys.stderr, show_notes=False)
    try:
        write_site(out, site.files)
    except OSError as problem:
        sys.stderr.write(f"error: cannot write the preview in {out}: {problem.strerror or problem}\n")
        return 1
    total = counts([*problems, *site.diagnostics])
    sys.stdout.write(f"{plural(len(files), 'quiz', 'quizzes')}: {plural(total['errors'], 'error')}; "
                     f"preview in {out / INDEX}\n")
    return 1 if total["errors"] else 0


def serve(out: Path) -> str:
    """Serve the site folder to this machine only, in the background; its address."""
    import functools
    import http.server
    import threading

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format, *args) -> None:  # one line per request would bury the build reports
            pass

        def end_headers(self) -> None:
            self.send_header("Cache-Control", "no-store")  # a reload must show the new build
            super().end_headers()

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/"


def _watch(sources: list[Path], out: Path, formats: tuple[str, ...], options: ExportOptions, max_media_bytes: int,
           open_browser: bool) -> int:
    try:
        from watchfiles import watch
    except ImportError:
        sys.stderr.write("error: --watch needs the watchfiles package: pip install 'lmsexport[watch]'\n")
        return 2
    address = serve(out)
    sys.stdout.write(f"serving the preview at {address} (its pages reload after each build)\n")
    if open_browser:
        import webbrowser

        webbrowser.open(address + INDEX)
    # A quiz file is watched through its folder, so that its media files count too.
    watched = sorted({str(p if p.is_dir() else p.parent) for p in sources if p.exists()})
    site = out.resolve()

    def relevant(_change, path: str) -> bool:
        resolved = Path(path).resolve()
        return resolved != site and site not in resolved.parents and not Path(path).name.startswith(".")

    sys.stdout.write(f"watching {', '.join(watched)} (Ctrl-C stops)\n")
    sys.stdout.flush()
    for _changes in watch(*watched, watch_filter=relevant, raise_interrupt=False):
        build_once(sources, out, formats, options, max_media_bytes)
        sys.stdout.flush()
    return 0


def run_preview(sources: list[Path], out: Path | None, *, open_browser: bool, watch: bool, formats: tuple[str, ...],
                options: ExportOptions, max_media_bytes: int) -> int:
    release_collector()  # see startup.py
    if out is None and open_browser:
        out = Path(tempfile.mkdtemp(prefix="lmsexport-preview-"))
    assert out is not None
    try:
        check_output_folder(out, sources)
    except OutputError as problem:
        sys.stderr.write(f"error: {problem}\n")
        return 2
    status = build_once(sources, out, formats, options, max_media_bytes)
    sys.stdout.flush()
    if watch:
        return _watch(sources, out, formats, options, max_media_bytes, open_browser)
    if open_browser:
        import webbrowser

        webbrowser.open((out / INDEX).resolve().as_uri())
    return status
