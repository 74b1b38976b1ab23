"""`evfind mcp` run as an agent host runs it: a subprocess spoken to over stdio by the MCP SDK's
own client (``mcp.ClientSession`` on ``mcp.stdio_client``), behind plain blocking calls so that
a test module shares one server process between its tests."""

from __future__ import annotations

import functools
import sys
from contextlib import ExitStack, asynccontextmanager
from pathlib import Path

import pytest

pytest.importorskip("mcp.client.stdio", reason="the MCP SDK is not installed: pip install 'evfind[mcp]' (the test extra has it)")

from anyio.from_thread import start_blocking_portal  # noqa: E402 (the SDK brings anyio)
from mcp import ClientSession, StdioServerParameters, stdio_client  # noqa: E402


class McpClient:
    """A session with `python -m evfind mcp *args`; the server's stderr goes to ``errlog``."""

    def __init__(self, *args: str | Path, errlog: Path, cwd: Path | None = None):
        self.args = [str(arg) for arg in args]
        self.errlog = errlog
        self._stack = ExitStack()
        try:
            log = self._stack.enter_context(open(errlog, "w", encoding="utf-8"))
            self.portal = self._stack.enter_context(start_blocking_portal())
            self.session, self.initialized = self._stack.enter_context(
                self.portal.wrap_async_context_manager(self._connect(log, cwd))
            )
        except BaseException:
            self._stack.close()
            raise

    @asynccontextmanager
    async def _connect(self, log, cwd):
        params = StdioServerParameters(command=sys.executable, args=["-m", "evfind", "mcp", *self.args], cwd=cwd)
        async with stdio_client(params, errlog=log) as (read, write):
            async with ClientSession(read, write) as session:
                initialized = await session.initialize()
                yield session, initialized

    def tools(self):
        return self.portal.call(self.session.list_tools).tools

    def call(self, tool: str, **arguments):
        """The tool's ``CallToolResult``; the SDK checks a result that is not an error against
        the tool's output schema (``ClientSession.validate_tool_result``) and raises if it
        does not conform."""
        return self.portal.call(functools.partial(self.session.call_tool, tool, arguments))

    def stderr(self) -> str:
        return self.errlog.read_text(encoding="utf-8")

    def close(self) -> None:
        self._stack.close()
