"""Fatal errors: problems that stop a run before anything is written.

Every error carries a one-line message, an optional location (a JSON pointer into the
spec, or a file path) and a hint saying what to do. The CLI group (``mcpforge.cli.Group``) turns them into one
clear message and a non-zero exit code; nothing else catches them.

Exception tree::

    MCPForgeError
     ├── SpecError                 the input document cannot be used
     │    ├── SpecReadError        unreadable file, bad JSON/YAML, too large or too deep
     │    ├── SpecFormatError      not an OpenAPI/Swagger document, unsupported version
     │    ├── RefError             unresolvable, refused (remote, outside the spec's folder) or cyclic $ref
     │    ├── OverlayError         an overlay that cannot be read or applied
     │    ├── SpecValidationError  validation problems, fatal under --strict
     │    └── NoOperationsError    the document has no operations to turn into tools
     ├── OutputError               the output directory cannot be written safely
     ├── Interrupted               a signal stopped the run (exit status 128 + the signal's number)
     └── ConfigError               invalid options or configuration file
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "Interrupted",
    "MCPForgeError",
    "NoOperationsError",
    "OutputError",
    "OverlayError",
    "RefError",
    "SpecError",
    "SpecFormatError",
    "SpecReadError",
    "SpecValidationError",
]


class MCPForgeError(Exception):
    """Base class of every fatal mcpforge error."""

    code = "error"
    exit_status = 1

    def __init__(self, message: str, *, location: str | None = None, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location
        self.hint = hint

    def render(self) -> str:
        """One line (plus an optional hint line) for humans."""
        from mcpforge.diagnostics import printable  # noqa: PLC0415 - avoid an import cycle at module load

        where = f" at {self.location}" if self.location else ""
        text = printable(f"error[{self.code}]{where}: {self.message}")
        if self.hint:
            text += f"\n  hint: {printable(self.hint)}"
        return text


class SpecError(MCPForgeError):
    """The input document cannot be used."""

    code = "spec"


class SpecReadError(SpecError):
    """The file cannot be read or parsed as JSON/YAML."""

    code = "spec-read"


class SpecFormatError(SpecError):
    """The document is not an OpenAPI 3.x or Swagger 2.0 document."""

    code = "spec-format"


class RefError(SpecError):
    """A ``$ref`` cannot be resolved, or resolving it was refused."""

    code = "ref"


class OverlayError(SpecError):
    """An overlay document cannot be read or applied."""

    code = "overlay"


class SpecValidationError(SpecError):
    """The document failed validation and validation problems are fatal (``--strict``)."""

    code = "spec-invalid"


class NoOperationsError(SpecError):
    """The document defines no operations."""

    code = "no-operations"


class OutputError(MCPForgeError):
    """The output directory cannot be written safely."""

    code = "output"


class ConfigError(MCPForgeError):
    """Invalid options or configuration file."""

    code = "config"


class Interrupted(MCPForgeError):
    """A signal (Ctrl-C, SIGTERM, SIGHUP) stopped the run; the message says what state it left."""

    code = "interrupted"

    def __init__(self, message: str, *, signum: int, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.exit_status = 128 + signum
