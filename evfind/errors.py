"""The one error vocabulary of evfind.

The library raises these; the CLI prints ``Error: <message>`` on stderr and exits with the
error's ``exit_code``. Every message is one line and, where there is one, says how to fix it.
"""

# Exit codes, documented in the README. 1 is "no page found" (like grep) and 2 is Click's usage
# error; the store-is-empty and no-content-words cases of the seed also exit 2.
EXIT_NO_MATCH = 1
EXIT_USAGE = 2
EXIT_INPUT = 3
EXIT_INCOMPATIBLE = 4
EXIT_BUSY = 5
EXIT_MISSING_EXTRA = 6


class EvfindError(Exception):
    """Base class: something the user can fix; never shown with a traceback.

    ``key`` names the message, with its ``params``, so the CLI can print it in the question's
    language (evfind/zh.py); ``str(error)`` is always the English message.
    """

    exit_code = EXIT_INPUT

    def __init__(self, message: str = "", *, key: str | None = None, **params):
        super().__init__(message)
        self.key = key
        self.params = params


class UsageError(EvfindError):
    """The request itself is not usable (a bad option value, an unknown page)."""

    exit_code = EXIT_USAGE


class NoPagesError(EvfindError):
    """The store holds no pages yet, so there is nothing to search."""

    exit_code = EXIT_USAGE


class NoContentWordsError(EvfindError):
    """The question has no searchable content words (empty, or only stopwords)."""

    exit_code = EXIT_USAGE


class InputError(EvfindError):
    """A path or file that evfind cannot use: missing, a directory, unreadable, malformed."""

    exit_code = EXIT_INPUT


class NotADatabaseError(InputError):
    """The file is not an SQLite database, or not one written by evfind."""


class SourceError(InputError):
    """A source file (PDF, JSONL, text) that cannot be read as pages."""


class PasswordError(SourceError):
    """The PDF is encrypted and the password is missing or wrong."""


class NoPageImageError(InputError):
    """A page has no image: its revision's PDF is not where it was, has changed, or never was a PDF."""


class NoPageHtmlError(InputError):
    """A page has no HTML of its own: its revision was no HTML filing, or the file is not where it was or has changed."""


class IncompatibleDatabaseError(EvfindError):
    """The database was written by another version of evfind and cannot be read as it is."""

    exit_code = EXIT_INCOMPATIBLE


class DatabaseBusyError(EvfindError):
    """The database is locked by another writer, or cannot be written where it lies."""

    exit_code = EXIT_BUSY


class MissingExtraError(EvfindError):
    """A command needs an optional part of evfind that is not installed (e.g. evfind[browse])."""

    exit_code = EXIT_MISSING_EXTRA
