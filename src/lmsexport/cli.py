"""The `lmsexport` command line. Exit codes: 0 ok, 1 content errors (or stale exports), 2 usage errors.

Heavy modules are imported inside the commands so that `lmsexport --version` starts fast.
Settings left out on the command line come from the project file (see config.py).
"""


import inspect
import os
import signal
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from .cli_help import PlainTypesGroup
from .formats import DEFAULT_FORMATS, FORMATS
from .readers import READERS, reader_titles
from .model import QUESTION_TYPES
from .startup import hold_collector, release_collector

DEFAULT_CONTENT = Path("content")
DEFAULT_EXPORTS = Path("exports")

app = typer.Typer(
    cls=PlainTypesGroup,
    add_completion=True,
    no_args_is_help=False,
    help="Write quiz content once as JSON; export IMS QTI 2.1, Canvas, Moodle XML and GIFT. With no command, build every format from content/ into exports/.",
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)


class ReportStyle(str, Enum):
    text = "text"
    json = "json"
    github = "github"


class StatsStyle(str, Enum):
    table = "table"
    json = "json"


QuestionType = Enum("QuestionType", {name: name for name in QUESTION_TYPES}, type=str)


def _version(value: bool) -> None:
    if value:
        from . import __version__

        typer.echo(f"lmsexport {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")] = False,
) -> None:
    """With no command, build every format from content/ into exports/."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(build)


def _config():
    from .config import ConfigError, find_config

    try:
        return find_config()
    except ConfigError as problem:
        typer.echo(f"error: {problem}", err=True)
        raise typer.Exit(2)


def _paths(given: Optional[list[Path]], config) -> list[Path]:
    return given or config.paths("content") or [DEFAULT_CONTENT]


def _formats(given: Optional[str], config) -> tuple[str, ...]:
    from .formats import parse_formats

    value = given if given is not None else config.get("formats", default=",".join(DEFAULT_FORMATS))
    try:
        return parse_formats(value)
    except ValueError as problem:
        raise typer.BadParameter(str(problem), param_hint="--format")


def _options(config, strict, nearest_grade, media_base_url):
    from .checks.addresses import media_base_url_problem
    from .writers.shared import ExportOptions

    base = config.get("media-base-url", media_base_url)
    problem = media_base_url_problem(base) if base is not None else None
    if problem:
        raise typer.BadParameter(problem, param_hint="--media-base-url")
    return ExportOptions(strict=bool(config.get("strict", strict, False)), nearest_grade=bool(config.get("nearest-grade", nearest_grade, False)),
                         media_base_url=base)


def _media_bytes(config, given: Optional[float]) -> int:
    return int(float(config.get("max-media-size", given, 5)) * 1048576)


Paths = Annotated[Optional[list[Path]], typer.Argument(metavar="PATH", help="Quiz files or folders (default: content/, or the project file's content).", show_default=False)]
Strict = Annotated[Optional[bool], typer.Option("--strict/--no-strict", help="Treat what a format cannot carry as errors.", show_default=False)]
NearestGrade = Annotated[Optional[bool], typer.Option("--nearest-grade/--exact-grade", help="Moodle/GIFT: move a credit that is not on Moodle's grade list to the nearest grade, with a warning, instead of failing.", show_default=False)]
Check = Annotated[bool, typer.Option("--check", help="Write nothing; exit 1 if any export is stale, missing or extra.")]
Jobs = Annotated[int, typer.Option("--jobs", "-j", min=1, help="Spread quizzes over this many processes.")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="Print only errors, and the count of warnings by kind.")]
Verbose = Annotated[bool, typer.Option("--verbose", "-v", help="Print every warning (not only the first of each kind), notes and every file written.")]
MediaBaseUrl = Annotated[Optional[str], typer.Option("--media-base-url", help="GIFT: link media files as this URL (http, https or a relative path) followed by their path (GIFT cannot embed files).", show_default=False)]
MaxMediaSize = Annotated[Optional[float], typer.Option("--max-media-size", min=0, help="Largest media file accepted, in MB (default 5).", show_default=False)]
Prune = Annotated[bool, typer.Option("--prune", help="Delete files in the output folders that no quiz produces any more.")]
NoCache = Annotated[bool, typer.Option("--no-cache", help="Build every quiz, trusting nothing an earlier build recorded in the output's .lmsexport/.")]
Formats = Annotated[Optional[str], typer.Option("--format", "-f", help=f"Comma-separated formats ({', '.join(FORMATS)}; default: all, or the project file's).", show_default=False)]


def _level(quiet: bool, verbose: bool) -> str:
    return "quiet" if quiet else "verbose" if verbose else "default"


@app.command()
def validate(
    paths: Paths = None,
    format: Formats = None,
    style: Annotated[ReportStyle, typer.Option("--output-format", help="text for people, json for tools (versioned: lmsexport schema --report), github for GitHub Actions annotations.")] = ReportStyle.text,
    strict: Strict = None,
    nearest_grade: NearestGrade = None,
    media_base_url: MediaBaseUrl = None,
    max_media_size: MaxMediaSize = None,
    jobs: Jobs = 1,
    quiet: Quiet = False,
    verbose: Verbose = False,
) -> None:
    """Check quiz files against the schema, the semantic rules and every format's own rules (what build would refuse), reporting every problem. PATH '-' reads a quiz from standard input."""
    from .commands.validate import run_validate

    if format in {s.value for s in ReportStyle}:  # the older spelling: --format names the report style
        style, format = ReportStyle(format), None
    config = _config()
    raise typer.Exit(run_validate(_paths(paths, config), style.value, _media_bytes(config, max_media_size), _formats(format, config),
                                  _options(config, strict, nearest_grade, media_base_url), _level(quiet, verbose), jobs))


def _export_command(format_name: str):
    parameters = {
        "paths": Paths,
        "out": Annotated[Optional[Path], typer.Option("--out", "-o", help=f"Output folder (default: exports/{format_name}/)" + ("; '-' writes one quiz to standard output." if FORMATS[format_name].to_stdout else "."), show_default=False)],
        "strict": Strict, "nearest_grade": NearestGrade, "check": Check, "jobs": Jobs, "quiet": Quiet,
        "verbose": Verbose, "prune": Prune, "max_media_size": MaxMediaSize, "media_base_url": MediaBaseUrl,
        "no_cache": NoCache,
    }
    defaults = {"check": False, "jobs": 1, "quiet": False, "verbose": False, "prune": False, "no_cache": False}
    # Options of one format only are offered by that format's command alone.
    own = set(FORMATS[format_name].options)
    wanted = [name for name in parameters if name not in ("nearest_grade", "media_base_url") or name in own]

    def command(**given) -> None:
        from .commands.export import run_export

        config = _config()
        if given["out"] is not None and str(given["out"]) == "-":
            from .commands.to_stdout import run_to_stdout

            if given["check"] or given["prune"] or given["jobs"] > 1:
                raise typer.BadParameter("standard output cannot be combined with --check, --prune or --jobs", param_hint="--out")
            options = _options(config, given["strict"], given.get("nearest_grade"), given.get("media_base_url"))
            raise typer.Exit(run_to_stdout(_paths(given["paths"], config), format_name, options, _media_bytes(config, given["max_media_size"])))
        root = (config.paths("out") or [DEFAULT_EXPORTS])[0]
        folder = given["out"] or root / FORMATS[format_name].folder
        options = _options(config, given["strict"], given.get("nearest_grade"), given.get("media_base_url"))
        raise typer.Exit(run_export(_paths(given["paths"], config), {format_name: folder}, strict=options.strict,
                                    nearest_grade=options.nearest_grade, check=given["check"], jobs=given["jobs"],
                                    quiet=given["quiet"], verbose=given["verbose"], prune=given["prune"],
                                    max_media_bytes=_media_bytes(config, given["max_media_size"]), media_base_url=options.media_base_url,
                                    use_cache=not given["no_cache"]))

    command.__signature__ = inspect.Signature([
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=parameters[name], default=defaults.get(name))
        for name in wanted])
    return command


for _format in FORMATS.values():
    app.command(_format.name, help=_format.help)(_export_command(_format.name))


@app.command()
def build(
    paths: Paths = None,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Output folder; each format gets a subfolder (default: exports/).", show_default=False)] = None,
    format: Formats = None,
    strict: Strict = None,
    nearest_grade: NearestGrade = None,
    check: Check = False,
    jobs: Jobs = 1,
    quiet: Quiet = False,
    verbose: Verbose = False,
    prune: Prune = False,
    max_media_size: MaxMediaSize = None,
    media_base_url: MediaBaseUrl = None,
    no_cache: NoCache = False,
) -> None:
    """Validate, then write every format for every quiz (default content/ into exports/)."""
    from .commands.export import run_export

    config = _config()
    names = _formats(format, config)
    if out is None:
        out = (config.paths("out") or [DEFAULT_EXPORTS])[0]
    options = _options(config, strict, nearest_grade, media_base_url)
    targets = {name: out / FORMATS[name].folder for name in names}
    raise typer.Exit(run_export(_paths(paths, config), targets, strict=options.strict, nearest_grade=options.nearest_grade, check=check,
                                jobs=jobs, quiet=quiet, verbose=verbose, prune=prune,
                                max_media_bytes=_media_bytes(config, max_media_size), media_base_url=options.media_base_url, root=out,
                                use_cache=not no_cache))


@app.command()
def new(
    quiz_id: Annotated[str, typer.Argument(metavar="ID", help="The quiz id (a slug such as 'ring-attention').")],
    type: Annotated[Optional[list[QuestionType]], typer.Option("--type", "-t", help=f"Question type to scaffold, one of {', '.join(QUESTION_TYPES)}; repeat for several (default: every type all default formats carry whole).", show_default=False)] = None,
    all_types: Annotated[bool, typer.Option("--all-types", help="One example question of every type, those some format cannot carry included (ordering: not in GIFT).")] = False,
    title: Annotated[Optional[str], typer.Option("--title", help="The quiz title (default: from the id).")] = None,
    language: Annotated[str, typer.Option("--language", "-l", help="BCP 47 language tag of the quiz.")] = "en",
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="File to write (default: content/ID.json).", show_default=False)] = None,
) -> None:
    """Create a new quiz file that validates and builds without a warning, with one example question of every type the default formats all carry (all but ordering, which GIFT lacks; --all-types adds it), and the schema editors complete it from."""
    from .commands.scaffold import run_new

    types = list(QUESTION_TYPES) if all_types else [t.value for t in type] if type else None
    raise typer.Exit(run_new(quiz_id, types, title, language, out or DEFAULT_CONTENT / f"{quiz_id}.json"))


@app.command()
def schema(
    path_only: Annotated[bool, typer.Option("--path", help="Print only the path of the packaged schema.")] = False,
    report: Annotated[bool, typer.Option("--report", help="The schema of validate's JSON report instead of a quiz's.")] = False,
    write: Annotated[Optional[Path], typer.Option("--write", help="Write the schema to this file (for example schema/quiz.schema.json, where quizzes made by new point).", show_default=False)] = None,
) -> None:
    """Print the packaged JSON Schema of a quiz (its path goes to standard error), or write it where quizzes point."""
    from .schema import schema_path

    path = schema_path().with_name("report.schema.json") if report else schema_path()
    if write is not None:
        from .output import write_atomic

        try:
            write_atomic(write, path.read_bytes())
        except OSError as problem:
            typer.echo(f"error: cannot write {write}: {problem.strerror or problem}", err=True)
            raise typer.Exit(2)
        typer.echo(f"wrote {write}")
        return
    if path_only:
        typer.echo(str(path))
        return
    typer.echo(f"# {path}", err=True)
    sys.stdout.write(path.read_text(encoding="utf-8"))


@app.command()
def stats(
    paths: Paths = None,
    output_format: Annotated[StatsStyle, typer.Option("--output-format", "--format", "-f", help="table or json. --format is the older spelling.")] = StatsStyle.table,
) -> None:
    """Per quiz: questions by type, drafts, languages and total points."""
    from .commands.stats import run_stats

    raise typer.Exit(run_stats(_paths(paths, _config()), output_format.value))


def _exit_interrupted(signum, frame) -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, RuntimeError):
            pass
    os.write(2, b"interrupted\n")
    os._exit(130)


@app.command()
def preview(
    paths: Paths = None,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Output folder (default: exports/preview/, or a temporary folder with --open).", show_default=False)] = None,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the preview in the web browser.")] = False,
    watch: Annotated[bool, typer.Option("--watch", help="Rebuild the preview whenever the content changes (needs watchfiles).")] = False,
    format: Annotated[Optional[str], typer.Option("--format", "-f", help="Comma-separated formats whose platforms the preview checks and shows (default: all, or the project file's).", show_default=False)] = None,
    nearest_grade: NearestGrade = None,
    media_base_url: MediaBaseUrl = None,
    max_media_size: MaxMediaSize = None,
) -> None:
    """Write a static site that shows each quiz as students see it, with a self-test and what each platform keeps."""
    from .commands.preview import run_preview

    config = _config()
    names = _formats(format, config)
    folder = out if out is not None or open_browser else (config.paths("out") or [DEFAULT_EXPORTS])[0] / "preview"
    options = _options(config, False, nearest_grade, media_base_url)  # as build would write the formats
    raise typer.Exit(run_preview(_paths(paths, config), folder, open_browser=open_browser, watch=watch, formats=names,
                                 options=options, max_media_bytes=_media_bytes(config, max_media_size)))


# auto, then every registered reader: a new reader is offered without touching the CLI.
ImportFormat = Enum("ImportFormat", {name: name for name in ("auto", *READERS)}, type=str)


@app.command("import")
def import_command(
    files: Annotated[list[Path], typer.Argument(metavar="FILE...", help=f"{reader_titles()} export files.", exists=True, dir_okay=False, show_default=False)],
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for the quiz files and their media.")] = DEFAULT_CONTENT,
    quiz_id: Annotated[Optional[str], typer.Option("--id", help="The quiz id (with several banks in one file: the prefix of their ids).", show_default=False)] = None,
    format: Annotated[ImportFormat, typer.Option("--format", "-f", help="The input format; auto judges by the content.")] = ImportFormat.auto,
    force: Annotated[bool, typer.Option("--force", help="Replace quiz files (and media) that already exist.")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Treat what cannot be carried into the content as errors.")] = False,
    language: Annotated[Optional[str], typer.Option("--language", "--lang", help="The quizzes' language where the file states none (Moodle XML and GIFT never do; QTI and Canvas may), as a BCP 47 tag: en, nl, pt-BR.", show_default=False)] = None,
    quiet: Quiet = False,
    verbose: Verbose = False,
) -> None:
    """Import question banks into content files: one quiz per category, quiz or bank."""
    from .commands.import_ import run_import

    raise typer.Exit(run_import(files, out, quiz_id, format.value, force, strict, quiet=quiet, verbose=verbose, language=language))


def main() -> None:
    """Run the CLI; an interrupt at any moment, even one a library swallows or one arriving as
    the run finishes, ends with exit code 130."""
    from .report import utf8_output

    utf8_output(sys.stdout, sys.stderr)
    interrupted: list[int] = []

    def on_interrupt(signum, frame):
        interrupted.append(signum)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_interrupt)
    hold_collector()  # until the command's modules are imported (startup.py)
    try:
        app()
        code = 0
    except KeyboardInterrupt:
        code = 130
    except SystemExit as finished:
        code = finished.code if isinstance(finished.code, int) else (0 if finished.code is None else 1)
    release_collector()
    # From here on an interrupt ends the process at once with 130, even while the interpreter
    # shuts down (where a KeyboardInterrupt would only be printed and ignored).
    signal.signal(signal.SIGINT, _exit_interrupted)
    if interrupted or code == 130:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    sys.exit(code)
