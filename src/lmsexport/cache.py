"""What earlier builds wrote, kept beside the exports: it lets a build skip the quizzes whose
inputs did not change, and it is the record of which files this tool wrote.

One entry per quiz, `<output>/.lmsexport/<quiz id>.json`, so that two changes to two quizzes
never touch the same file (the folder is committed with the exports and must merge cleanly).
An entry says: the quiz file at this path, with inputs of this key, gave these diagnostics and
these export files with these SHA-256 digests. The key covers everything an export depends on:
the quiz file's bytes, each media file it shows (as loaded: type, sanitised bytes, what
sanitising removed), the tool's own code and schema, the versions of the libraries that shape
the output, the Python version, the formats and every option.

An entry is trusted only when it is whole and sealed (a digest of its own text), its key equals
the key computed now from the files on disk, and every export file it lists is on disk with the
recorded digest. Anything else (an old format, a truncated or hand-edited entry, a changed quiz
or media file, an export edited or deleted) makes the quiz go through the full build, so a
cache can cost time but never give a wrong export. The seal is a checksum, not a signature:
someone who recomputes it deliberately can make a build skip a quiz; `--no-cache` checks
everything from scratch.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import time
from collections.abc import Sequence
from dataclasses import dataclass, fields
from functools import lru_cache
from operator import attrgetter
from pathlib import Path

from . import __version__
from .diagnostics import Diagnostic, RecordedDiagnostics, Severity, kind_of
from .media import MediaProblem, load_media
from .output import read_if_exists, write_atomic

FOLDER = ".lmsexport"
HEADER = b"lmsexport-cache 1 "
# Libraries whose versions change what a build writes or reports.
_LIBRARIES = ("lxml", "markdown-it-py", "mdit-py-plugins", "latex2mathml", "jsonschema", "jsonschema-rs", "langcodes")


@lru_cache(maxsize=1)
def tool_digest() -> str:
    """The tool's own code and schema, the libraries' versions and Python's: a new version of
    any of them may write other bytes, so it invalidates every entry."""
    from importlib import metadata

    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:  # code, schema, any compiled part
            digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    for name in _LIBRARIES:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = "-"
        digest.update(f"{name}={version}\0".encode())
    digest.update(f"lmsexport={__version__}\0python={platform.python_version()}\0".encode())
    return digest.hexdigest()


def file_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def media_digest(quiz_folder: Path, address: str, max_bytes: int) -> tuple[str, str] | None:
    """The digest of a media file as the loader gives it to the writers (type, sanitised bytes,
    what sanitising removed) and the digest of those bytes alone; None when it cannot be
    loaded now (missing, too large, of a refused type...)."""
    loaded, removed = load_media(quiz_folder, address, max_bytes)
    if isinstance(loaded, MediaProblem):
        return None
    data = hashlib.sha256(loaded.data).hexdigest()
    return hashlib.sha256(f"{loaded.mime}\0{data}\0{removed!r}".encode()).hexdigest(), data


def inputs_key(path: Path, source: str, media: list[tuple[str, str]], settings: tuple) -> str:
    """`source`: the quiz file's digest; `media`: (address, media_digest) in the order shown;
    `settings`: formats and options, anything JSON can write."""
    material = [tool_digest(), str(path), source, media, list(settings)]
    return hashlib.sha256(json.dumps(material, ensure_ascii=False).encode()).hexdigest()


_SEVERITIES = {s.value: s for s in Severity}
# A diagnostic is stored as the list of its fields but `file` (the quiz file, known on reading),
# in the dataclass's order, so that no field can be forgotten; a change of the fields changes the
# tool's digest and so every key.
_FIELDS = [f.name for f in fields(Diagnostic)]
_FILE_AT = _FIELDS.index("file")
_TUPLE_AT = [i for i, f in enumerate(fields(Diagnostic)) if isinstance(f.default, tuple)]


_field_values = attrgetter(*_FIELDS)  # (each field's value) of a diagnostic, read in C


def _diagnostic_json(d: Diagnostic) -> list:
    # The tuple fields stay tuples: JSON writes a tuple as it writes a list.
    values = list(_field_values(d))
    values[0] = d.severity.value
    del values[_FILE_AT]
    return values


def _diagnostic(values: list, file: str) -> Diagnostic:
    values = list(values)
    values.insert(_FILE_AT, file)
    values[0] = _SEVERITIES[values[0]]
    for i in _TUPLE_AT:
        values[i] = tuple(values[i])
    if len(values) != len(_FIELDS):
        raise ValueError("a diagnostic with other fields")
    return Diagnostic(*values)


_TODAYS_FIELDS = ["severity", "message", "file", "pointer", "line", "column", "code", "formats", "loss"]


def _diagnostics(rows: list, file: str) -> Sequence[Diagnostic]:
    if _FIELDS == _TODAYS_FIELDS:
        # The same as _diagnostic for today's fields, without making a Diagnostic of each row
        # until one is asked for: a cached quiz of a large bank replays tens of thousands, and a
        # report prints few of them. The rows are checked here, so none can fail later.
        severities, kinds = [], []
        for row in rows:
            severity, _, _, _, _, code, formats, _ = row
            severities.append(_SEVERITIES[severity])
            if not isinstance(code, str) or not isinstance(formats, list) or not all(isinstance(f, str) for f in formats):
                raise ValueError("a diagnostic with fields of other types")
            kinds.append(kind_of(formats, code) if severity == "warning" else None)

        def make(row: list) -> Diagnostic:
            s, m, p, line, column, code, formats, loss = row
            return Diagnostic(_SEVERITIES[s], m, file, p, line, column, code, tuple(formats), bool(loss))

        return RecordedDiagnostics(rows, make, severities, kinds)
    return tuple([_diagnostic(values, file) for values in rows])


@dataclass(frozen=True, slots=True)
class Entry:
    source: str  # the quiz file, relative to the cache folder, with '/'
    key: str
    quiz_id: str
    questions: int
    drafts: int
    media: tuple[str, ...]  # addresses of the media files the quiz shows, in order
    diagnostics: Sequence[Diagnostic]
    files: dict[str, tuple[str, str] | None]  # format -> (file name, digest); None: nothing to export

    def to_json(self, with_diagnostics: bool = True) -> dict:
        """The entry as JSON values; without its diagnostics' rows (left empty), for `encode`,
        which writes them itself."""
        return {
            "source": self.source, "key": self.key, "quiz_id": self.quiz_id, "questions": self.questions,
            "drafts": self.drafts, "media": list(self.media),
            "diagnostics": [_diagnostic_json(d) for d in self.diagnostics] if with_diagnostics else [],
            "files": {f: (list(v) if v else None) for f, v in self.files.items()},
        }

    @classmethod
    def from_json(cls, data: dict, file: str) -> Entry:
        diagnostics = _diagnostics(data["diagnostics"], file)
        files = {str(f): ((str(v[0]), str(v[1])) if v else None) for f, v in data["files"].items()}
        for value in files.values():
            if value and ("/" in value[0] or "\\" in value[0] or value[0].startswith(".")):
                raise ValueError("an export file name with a folder in it")
        return cls(str(data["source"]), str(data["key"]), str(data["quiz_id"]), int(data["questions"]), int(data["drafts"]),
                   tuple(str(m) for m in data["media"]), diagnostics, files)


def _seal(body: bytes) -> bytes:
    return hashlib.sha256(b"lmsexport cache entry\0" + body).hexdigest().encode()


_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True)  # json.dumps would make one a call: one a diagnostic


def _dumps(value: object) -> str:
    return _ENCODER.encode(value)


_string = json.encoder.encode_basestring  # a str as _ENCODER writes it (ensure_ascii=False)
_SEVERITY_JSON = {s: _string(s.value) for s in Severity}


def _number_json(value: object) -> str | None:
    """A line or column as JSON writes it; None for a value of another type."""
    if value is None:
        return "null"
    return int.__repr__(value) if type(value) is int else None


def _diagnostic_line(d: Diagnostic) -> str:
    """`_dumps(_diagnostic_json(d))`, written field by field for today's fields: a cold build of
    a large bank stores tens of thousands of diagnostics, and the encoder's call costs more than
    the row (tests/test_build_cache.py holds the two to each other)."""
    line, column = _number_json(d.line), _number_json(d.column)
    if _FIELDS != _TODAYS_FIELDS or line is None or column is None or type(d.loss) is not bool:
        return _dumps(_diagnostic_json(d))
    try:
        formats = ", ".join([_string(f) for f in d.formats])
        return (f"[{_SEVERITY_JSON[d.severity]}, {_string(d.message)}, {_string(d.pointer)}, {line}, {column}, "
                f"{_string(d.code)}, [{formats}], {'true' if d.loss else 'false'}]")
    except TypeError:  # a field that is not a string: the encoder says how it writes it
        return _dumps(_diagnostic_json(d))


def encode(entry: Entry) -> bytes:
    # One field a line and one diagnostic a line: entries are committed, and their diffs are read.
    fields = []
    for name, value in sorted(entry.to_json(with_diagnostics=False).items()):
        if name == "diagnostics":
            rows = [_diagnostic_line(d) for d in entry.diagnostics]
            value_text = "[\n" + ",\n".join(["  " + row for row in rows]) + "\n ]" if rows else "[]"
        else:
            value_text = _dumps(value)
        fields.append(f" {_dumps(name)}: {value_text}")
    body = ("{\n" + ",\n".join(fields) + "\n}\n").encode()
    return HEADER + _seal(body) + b"\n" + body


def decode(data: bytes) -> dict | None:
    """The entry's JSON, or None when the file is not a whole, untouched entry of this format."""
    header, _, body = data.partition(b"\n")
    if not header.startswith(HEADER) or header[len(HEADER):] != _seal(body):
        return None
    try:
        value = json.loads(body)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


class Cache:
    """The entries of one output folder, by the quiz file they describe."""

    def __init__(self, folder: Path, enabled: bool = True):
        self.folder = folder
        self.enabled = enabled
        self._by_source: dict[str, dict] = {}
        self._names_by_source: dict[str, str] = {}
        self.names: dict[str, Path] = {}  # entry file name -> path, sound or not
        self.written: dict[str, set[str]] = {}  # format -> export names that sound entries list
        self.listed: dict[str, dict[str, str]] = {}  # entry file name -> format -> export name
        if not folder.is_dir():
            return
        claimed: dict[str, int] = {}
        for path in sorted(folder.glob("*.json")):
            self.names[path.name] = path
            try:
                data = decode(path.read_bytes())
                if data is None:
                    continue
                source = data["source"]
                files = Entry.from_json({**data, "diagnostics": []}, "").files
            except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
                continue
            self.listed[path.name] = {f: value[0] for f, value in files.items() if value}
            for format_name, value in files.items():
                if value:
                    self.written.setdefault(format_name, set()).add(value[0])
            claimed[source] = claimed.get(source, 0) + 1
            self._by_source[source] = data
            self._names_by_source[source] = path.name
        for source, count in claimed.items():
            if count > 1:  # two entries for one file: neither can be believed
                del self._by_source[source]

    def relative(self, path: Path) -> str:
        return Path(os.path.relpath(os.path.abspath(path), os.path.abspath(self.folder))).as_posix()

    def lookup(self, path: Path) -> Entry | None:
        """The sound entry for this quiz file, its diagnostics placed in it; not yet checked
        against the files on disk."""
        data = self._by_source.get(self.relative(path)) if self.enabled else None
        if data is None:
            return None
        try:
            return Entry.from_json(data, str(path))
        except (ValueError, KeyError, TypeError, IndexError, AttributeError):
            return None

    def entry_name(self, path: Path) -> str:
        """The file name of the sound entry for this quiz file, if any (else an empty name)."""
        return self._names_by_source.get(self.relative(path), "") if self.relative(path) in self._by_source else ""

    def store(self, entry: Entry) -> None:
        name = f"{entry.quiz_id}.json"
        # Not flushed to the disk before its rename (a few milliseconds an entry): an entry cut
        # short by a power failure fails its seal and only costs a full build of its quiz.
        write_atomic(self.folder / name, encode(entry), durable=False)
        self.names[name] = self.folder / name

    def remove_except(self, kept: set[str]) -> None:
        """Remove the entries (sound or not) whose file name is not in `kept`."""
        for name, path in self.names.items():
            if name not in kept:
                path.unlink(missing_ok=True)


# --- Digests of the exports on disk, by their file status ---------------------------------

STAMPS = "stamps"
STAMPS_HEADER = b"lmsexport-stamps 1 "
# What stops git from ever committing the stamps: they hold this machine's file status.
_IGNORE = b"# Written by lmsexport: the stamps are this machine's own; commit the entries (*.json).\n/stamps\n"
_WHOLE_SECOND = 1_000_000_000


def _settled_margin(mtime_ns: int, ctime_ns: int) -> int:
    """How long before its hashing a file must have been last changed for its status to stand
    for its bytes: longer than the file system's timestamp granularity (whole seconds on some,
    two on FAT) plus the lag of the kernel's clock for timestamps behind the system clock."""
    return 2 * _WHOLE_SECOND if mtime_ns % _WHOLE_SECOND == 0 and ctime_ns % _WHOLE_SECOND == 0 else 100_000_000


class Stamps:
    """The SHA-256 of each export file as last hashed on this machine, with the file's status
    (size, modification and change times, inode) at that moment, in `<cache>/stamps` (ignored
    by git). An export whose status is what it was is not read again: checking an unchanged bank
    of 100,000 questions would otherwise read and hash half a gigabyte.

    A stamp stands for the file only when the file had last changed well before it was hashed
    (`_settled_margin`): any later write gives the file another change time (which no user tool
    can set back; on Windows Python gives the creation time instead, and only the modification
    time and size show a write), so its status differs and it is hashed again. A file written moments before
    its hashing is hashed again the next time. A stamps file that is not whole and sealed, or
    one from elsewhere (other inodes), only costs the reading."""

    def __init__(self, folder: Path, enabled: bool = True):
        self.folder = folder
        self.path = folder / STAMPS
        self.enabled = enabled
        self.known: dict[str, list] = {}  # relative path -> [size, mtime_ns, ctime_ns, inode, hashed at (ns), digest]
        self.current: dict[str, list] = {}  # stamps of this run: what `save` writes
        if not enabled:
            return
        try:
            data = self.path.read_bytes()
        except OSError:
            return
        header, _, body = data.partition(b"\n")
        if not header.startswith(STAMPS_HEADER) or header[len(STAMPS_HEADER):] != _seal(body):
            return
        try:
            known = json.loads(body)
            if isinstance(known, dict) and all(isinstance(v, list) and len(v) == 6 and all(isinstance(n, int) for n in v[:5])
                                               and isinstance(v[5], str) for v in known.values()):
                self.known = known
        except ValueError:
            pass

    def digest(self, path: Path) -> str | None:
        """The SHA-256 of the file's bytes now; None when there is no such file. OSError when
        it cannot be read (a folder where the file should be)."""
        try:
            before = os.stat(path)
        except FileNotFoundError:
            return None
        name = Path(os.path.relpath(path, self.folder)).as_posix()
        status = [before.st_size, before.st_mtime_ns, before.st_ctime_ns, before.st_ino]
        stamp = self.known.get(name)
        if stamp is not None and stamp[:4] == status and max(status[1], status[2]) + _settled_margin(status[1], status[2]) < stamp[4]:
            self.current[name] = stamp
            return stamp[5]
        hashed_at = time.time_ns()
        data = read_if_exists(path)
        if data is None:
            return None
        digest = file_digest(data)
        after = os.stat(path)
        if [after.st_size, after.st_mtime_ns, after.st_ctime_ns, after.st_ino] == status:
            self.current[name] = [*status, hashed_at, digest]
        return digest

    def save(self) -> None:
        """Keep this run's stamps (nothing when there are none to keep); never fails the build."""
        if not self.enabled or (not self.current and not self.known):
            return
        body = json.dumps(self.current, sort_keys=True, separators=(",", ":")).encode()
        try:
            ignore = self.folder / ".gitignore"
            if not ignore.exists():
                write_atomic(ignore, _IGNORE)
            write_atomic(self.path, STAMPS_HEADER + _seal(body) + b"\n" + body, durable=False)  # sealed, as entries are
        except OSError:
            pass  # only the next check is slower
