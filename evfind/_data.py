"""Plain data files shipped in evfind/data/ (read from the package directory: no zipimport)."""

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"

# The data files whose every row ends with a `source` column: the standard the row comes from (a
# form's Item, a Reg S-K / S-X rule, an ASC topic, a statement caption, a non-GAAP measure, a
# capital-markets term, a published word list or character table, a benchmark's prompt
# template). Every .tsv file is one; a .txt word list names its source in its header instead
# ("# Source: ..."). Readers get the other columns; the source is checked here.
SOURCED = frozenset({
    "sections.tsv", "routes.tsv", "lexicon.tsv", "glossary_zh.tsv", "exhibits.tsv", "form_items.tsv",
    "traditional_zh.tsv", "meta_words.tsv", "derivations.tsv", "question_words.tsv", "compounds.tsv",
    "title_words.tsv", "statement_lines.tsv", "concepts.tsv", "textblocks.tsv",
})


def rows(name: str, columns: int | None = None, *, source: bool = False) -> list[list[str]]:
    """The tab-separated rows of a data file, without blank lines and # comments.

    A file of ``SOURCED`` must have ``columns`` fields and a last, non-empty ``source`` field
    on every row; the rows come back without it (with it as the last field if ``source``)."""
    sourced = name in SOURCED
    if sourced and columns is None:
        raise RuntimeError(f"evfind/data/{name}: read it with its number of columns")
    result = []
    for number, line in enumerate((DATA / name).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.rstrip("\n").split("\t")
        expected = columns + 1 if sourced and columns is not None else columns
        if expected is not None and len(fields) != expected:
            what = f"{columns} tab-separated fields and a source" if sourced else f"{columns} tab-separated fields"
            raise RuntimeError(f"evfind/data/{name}:{number}: expected {what}")
        if sourced:
            if not fields[-1].strip():
                raise RuntimeError(f"evfind/data/{name}:{number}: the source (last field) is empty")
            if not source:
                fields = fields[:-1]
        result.append(fields)
    return result


def words(name: str) -> list[str]:
    """The entries of a .txt word list, one a line, stripped, without blank lines and # comments
    (its header, which names its source)."""
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def compiled(name: str, files: tuple[str, ...], build, code: str | tuple[str, ...] | None = None):
    """``build()``, the value a reader makes of some data files, kept between processes.

    Reading the vocabulary (a few thousand rows, each cue tokenised and normalised) costs a
    query process more than the query itself; the value is kept with ``marshal`` in the user's
    cache directory ($XDG_CACHE_HOME/evfind, else ~/.cache/evfind), under a key of the size and
    modification time of each file and of the module that builds the value (``code``: its file,
or the files of every module whose code the value depends on), and read back
    (~1 ms) while they are unchanged. The value must be made of plain values (str, tuple, dict, frozenset, bool). A
    value written under a new key removes the files of ``name`` under older keys (one file a
    name and install, not one per edit of a data file; another checkout keeps its own). A
    cache that cannot be read or written is skipped: the value is built as if there were none.
    EVFIND_NO_CACHE=1 switches the cache off."""
    import os

    if os.environ.get("EVFIND_NO_CACHE"):
        return build()
    try:
        # the files read, and the code that reads them (a new evfind reads them its own way)
        codes = code if isinstance(code, tuple) else (code or build.__code__.co_filename,)
        paths = [DATA / f for f in files] + [Path(c) for c in codes]
        stats = [(p.name, os.stat(p)) for p in paths]
        key = "|".join([name] + [f"{f}:{s.st_size}:{s.st_mtime_ns}" for f, s in stats])
        folder = cache_folder()
        import zlib

        # one file per install (its folder) and name: two checkouts do not evict each other
        install = f"{name}-{zlib.crc32(str(DATA).encode()):08x}"
        path = folder / f"{install}-{zlib.crc32(key.encode()):08x}.marshal"
    except (OSError, RuntimeError):
        return build()
    import marshal

    try:
        stored_key, value = marshal.loads(path.read_bytes())
        if stored_key == key:
            return value
    except (OSError, ValueError, EOFError, TypeError):
        pass
    value = build()
    if keep(path, (key, value)):
        try:
            for stale in folder.glob(f"{install}-{'[0-9a-f]' * 8}.marshal"):  # this install's, under older keys
                if stale != path:
                    stale.unlink(missing_ok=True)
        except OSError:
            pass
    return value


def cache_folder() -> Path:
    """The user's cache directory of evfind: $XDG_CACHE_HOME/evfind, else ~/.cache/evfind."""
    import os

    return Path(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")) / "evfind"


def keep(path: Path, value) -> bool:
    """Write ``value`` with marshal to ``path`` (a file of ``cache_folder``) as a whole or not at
    all: to a temporary file renamed over it. False where it cannot be written (the cache is
    then skipped, never an error)."""
    import _thread
    import marshal
    import os

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f".{path.name}.{os.getpid()}.{_thread.get_ident()}")  # (a thread's own)
        temp.write_bytes(marshal.dumps(value))
        os.replace(temp, path)
    except (OSError, ValueError):
        return False
    return True
