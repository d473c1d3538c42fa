"""The templates rendered by a worker started early: Jinja loads and compiles them on the second core meanwhile.

Loading Jinja and compiling the templates costs a fifth of a small document's run. A worker
forked before the rest of the pipeline is even imported does it while this process reads,
parses and builds; it renders once :meth:`TemplateRenderer.render` sends it the context. This
module imports nothing heavy: it is imported before the pipeline.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from mcpforge.handover import Blobs
from mcpforge.worker import Inbox, Worker, worker

__all__ = ["TemplateRenderer", "template_renderer"]

Rendered = list[tuple[str, str]]  # (path, text) of each templated file


def _rendered_when_sent(inbox: Inbox[dict[str, Any]], _: Blobs) -> Rendered:
    from mcpforge.render.templates import load_templates, render_templates  # noqa: PLC0415 - in the worker

    load_templates()
    return render_templates(inbox.receive())


class TemplateRenderer:
    """Templates waiting for their context: :meth:`render` sends it, :meth:`result` gives the files."""

    def __init__(self, inbox: Inbox[dict[str, Any]], running: Worker[Rendered]) -> None:
        self._inbox, self._running = inbox, running
        self._context: dict[str, Any] | None = None

    def render(self, context: dict[str, Any]) -> None:
        """Render the templates from ``context`` (in the worker, while the caller goes on)."""
        self._context = context
        self._inbox.send(context)

    def result(self) -> Rendered:
        """``(path, text)`` of each templated file; :class:`~mcpforge.worker.WorkerError` if the worker died."""
        return self._running.result()

    def rendered_here(self) -> Rendered:
        """The same files, rendered in this process (when the worker died)."""
        from mcpforge.render.templates import render_templates  # noqa: PLC0415 - Jinja only where it renders

        if self._context is None:
            raise RuntimeError("the templates' context was not sent")
        return render_templates(self._context)


@contextmanager
def template_renderer(*, fork: bool = True) -> Iterator[TemplateRenderer]:
    """A renderer whose worker starts now (forked when ``fork`` and possible); stopped if the block fails."""
    inbox: Inbox[dict[str, Any]] = Inbox()
    with worker(partial(_rendered_when_sent, inbox), fork=fork, inbox=inbox) as running:
        yield TemplateRenderer(inbox, running)
