"""The `lmsexport` command line. Exit codes: 0 ok, 1 content errors (or stale exports), 2 usage errors.

Heavy modules are imported inside the commands so that `lmsexport --version` starts fast.
"""


import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from . import __version__

DEFAULT_CONTENT = Path("content")
DEFAULT_EXPORTS = Path("exports")

app = typer.Typer(
    add_completion=False,
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


def _version(value: bool) -> None:
    if value:
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


Paths = Annotated[Optional[list[Path]], typer.Argument(help="Quiz files or folders (default: content/).", show_default=False)]
Strict = Annotated[bool, typer.Option("--strict", help="Treat warnings about what a format cannot carry as errors.")]
NearestGrade = Annotated[bool, typer.Option("--nearest-grade", help="Moodle/GIFT: move a credit that is not on Moodle's grade list to the nearest grade, with a warning, instead of failing.")]
Check = Annotated[bool, typer.Option("--check", help="Write nothing; exit 1 if any export is stale, missing or extra.")]
Jobs = Annotated[int, typer.Option("--jobs", "-j", min=1, help="Spread quizzes over this many processes.")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="Print only errors and warnings.")]
Verbose = Annotated[bool, typer.Option("--verbose", "-v", help="Also print notes and every file written.")]
MediaBaseUrl = Annotated[Optional[str], typer.Option("--media-base-url", help="GIFT: link media files as this URL followed by their path (GIFT cannot embed files).", show_default=False)]
MaxMediaSize = Annotated[float, typer.Option("--max-media-size", min=0, help="Largest media file accepted, in MB.")]
Prune = Annotated[bool, typer.Option("--prune", help="Delete files in the output folders that no quiz produces any more.")]


@app.command()
def validate(
    paths: Paths = None,
    format: Annotated[ReportStyle, typer.Option("--format", "-f", help="text for people, json for tools, github for GitHub Actions annotations.")] = ReportStyle.text,
    max_media_size: MaxMediaSize = 5,
) -> None:
    """Check quiz files against the schema and the semantic rules, reporting every problem."""
    from .commands.validate import run_validate

    raise typer.Exit(run_validate(paths or [DEFAULT_CONTENT], format.value, int(max_media_size * 1048576)))


def _export_command(format_name: str):
    def command(
        paths: Paths = None,
        out: Annotated[Optional[Path], typer.Option("--out", "-o", help=f"Output folder (default: exports/{format_name}/).", show_default=False)] = None,
        strict: Strict = False,
        nearest_grade: NearestGrade = False,
        check: Check = False,
        jobs: Jobs = 1,
        quiet: Quiet = False,
        verbose: Verbose = False,
        prune: Prune = False,
        max_media_size: MaxMediaSize = 5,
        media_base_url: MediaBaseUrl = None,
    ) -> None:
        from .commands.export import run_export

        folder = out or DEFAULT_EXPORTS / format_name
        raise typer.Exit(run_export(paths or [DEFAULT_CONTENT], {format_name: folder}, strict=strict, nearest_grade=nearest_grade,
                                    check=check, jobs=jobs, quiet=quiet, verbose=verbose, prune=prune,
                                    max_media_bytes=int(max_media_size * 1048576), media_base_url=media_base_url))

    return command


for _name, _help in (
    ("qti", "Write one IMS QTI 2.1 content package (.zip) per quiz."),
    ("canvas", "Write one Canvas quiz package (Canvas's QTI 1.2) per quiz."),
    ("moodle", "Write one Moodle XML file per quiz."),
    ("gift", "Write one GIFT file per quiz."),
):
    app.command(_name, help=_help)(_export_command(_name))


@app.command()
def build(
    paths: Paths = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder; each format gets a subfolder.")] = DEFAULT_EXPORTS,
    format: Annotated[str, typer.Option("--format", "-f", help="Comma-separated formats to write.")] = "qti,canvas,moodle,gift",
    strict: Strict = False,
    nearest_grade: NearestGrade = False,
    check: Check = False,
    jobs: Jobs = 1,
    quiet: Quiet = False,
    verbose: Verbose = False,
    prune: Prune = False,
    max_media_size: MaxMediaSize = 5,
    media_base_url: MediaBaseUrl = None,
) -> None:
    """Validate, then write every format for every quiz (default content/ into exports/)."""
    from .commands.export import run_export
    from .formats import FORMATS

    names = [n.strip() for n in format.split(",") if n.strip()]
    unknown = [n for n in names if n not in FORMATS]
    if unknown or not names:
        raise typer.BadParameter(f"unknown format {', '.join(unknown) or '(none)'}; choose from {', '.join(FORMATS)}", param_hint="--format")
    targets = {name: out / FORMATS[name].folder for name in names}
    raise typer.Exit(run_export(paths or [DEFAULT_CONTENT], targets, strict=strict, nearest_grade=nearest_grade, check=check,
                                jobs=jobs, quiet=quiet, verbose=verbose, prune=prune,
                                max_media_bytes=int(max_media_size * 1048576), media_base_url=media_base_url, root=out))


@app.command()
def new(
    quiz_id: Annotated[str, typer.Argument(metavar="ID", help="The quiz id (a slug such as 'ring-attention').")],
    type: Annotated[list[str], typer.Option("--type", "-t", help="Question type(s) to scaffold; repeat for several.")] = ["single_choice"],
    title: Annotated[Optional[str], typer.Option("--title", help="The quiz title (default: from the id).")] = None,
    language: Annotated[str, typer.Option("--language", "-l", help="BCP 47 language tag of the quiz.")] = "en",
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="File to write (default: content/ID.json).", show_default=False)] = None,
) -> None:
    """Create a new quiz file that validates, with one example question per type."""
    from .commands.scaffold import run_new

    raise typer.Exit(run_new(quiz_id, type, title, language, out or DEFAULT_CONTENT / f"{quiz_id}.json"))


@app.command()
def schema(
    path_only: Annotated[bool, typer.Option("--path", help="Print only the path of the packaged schema.")] = False,
) -> None:
    """Print the packaged JSON Schema of a quiz (its path goes to standard error)."""
    from .schema import schema_path

    path = schema_path()
    if path_only:
        typer.echo(str(path))
        return
    typer.echo(f"# {path}", err=True)
    sys.stdout.write(path.read_text(encoding="utf-8"))


@app.command()
def stats(
    paths: Paths = None,
    format: Annotated[StatsStyle, typer.Option("--format", "-f", help="table or json.")] = StatsStyle.table,
) -> None:
    """Per quiz: questions by type, drafts, languages and total points."""
    from .commands.stats import run_stats

    raise typer.Exit(run_stats(paths or [DEFAULT_CONTENT], format.value))


class ImportFormat(str, Enum):
    auto = "auto"
    moodle = "moodle"
    gift = "gift"
    qti = "qti"
    canvas = "canvas"


@app.command("import")
def import_command(
    files: Annotated[list[Path], typer.Argument(metavar="FILE...", help="Moodle XML, GIFT, QTI 2.1 or Canvas export files.", exists=True, dir_okay=False, show_default=False)],
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for the quiz files and their media.")] = DEFAULT_CONTENT,
    quiz_id: Annotated[Optional[str], typer.Option("--id", help="The quiz id (with several banks in one file: the prefix of their ids).", show_default=False)] = None,
    format: Annotated[ImportFormat, typer.Option("--format", "-f", help="The input format; auto judges by the content.")] = ImportFormat.auto,
    force: Annotated[bool, typer.Option("--force", help="Replace quiz files (and media) that already exist.")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Treat what cannot be carried into the content as errors.")] = False,
    quiet: Quiet = False,
    verbose: Verbose = False,
) -> None:
    """Import question banks into content files: one quiz per category, quiz or bank."""
    from .commands.import_ import run_import

    raise typer.Exit(run_import(files, out, quiz_id, format.value, force, strict, quiet=quiet, verbose=verbose))


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
