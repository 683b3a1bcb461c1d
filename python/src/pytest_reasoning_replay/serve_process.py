"""`reasoning-replay serve` as a child process on a free port on 127.0.0.1, asked over HTTP."""
from __future__ import annotations

import collections
import json
import re
import shlex
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Deque, Dict, List, Optional

from .errors import ReasoningReplayUnavailable
from .findings import FindingsAnswer

LISTENING = re.compile(r"listening on (http://127\.0\.0\.1:\d+)")
STOPPED = re.compile(r"stopped after (.*)")
# serve loads every provider spec and fixture before it listens: seconds on a busy machine.
START_TIMEOUT_S = 120.0
STOP_TIMEOUT_S = 15.0


class ServeProcess:
    """One serve for the whole test session: started once (a few seconds), asked after each test for what is new."""

    def __init__(self, argv: List[str], log_file: Path, strict: bool):
        self.command = shlex.join(argv)
        self.log_file = log_file
        self.url = ""
        self.index: Dict[str, Any] = {}
        self.summary: Optional[str] = None
        #: Where the next test's findings start: each test reads only what its own requests broke.
        self.cursor = 0
        self._stderr: Deque[str] = collections.deque(maxlen=50)
        self._listening = threading.Event()
        args = [*argv, "serve", "--port", "0", "--quiet", "--log", str(log_file), *(["--strict"] if strict else [])]
        try:
            # stdout unused (the log goes to a file); stderr read by a thread so serve never blocks on a full pipe.
            self._process = subprocess.Popen(
                args,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
            )
        except OSError as err:
            raise ReasoningReplayUnavailable(
                f"cannot start `{self.command} serve`: {err.strerror or err}; install reasoning-replay "
                "(npm install --save-dev reasoning-replay) or name the command with --reasoning-replay-cmd"
            ) from err
        self._reader = threading.Thread(target=self._read_stderr, name="reasoning-replay-serve-stderr", daemon=True)
        self._reader.start()

    def _read_stderr(self) -> None:
        assert self._process.stderr is not None
        for line in self._process.stderr:
            line = line.rstrip("\n")
            self._stderr.append(line)
            listening = LISTENING.search(line)
            if listening and not self.url:
                self.url = listening.group(1)
                self._listening.set()
            stopped = STOPPED.search(line)
            if stopped:
                self.summary = stopped.group(1)

    def _last_words(self) -> str:
        said = [line for line in self._stderr if line.strip()]
        return said[-1] if said else "(it printed nothing)"

    def wait_until_answering(self) -> None:
        """Until serve printed its URL and answers GET / with its index; else one line saying why."""
        deadline = time.monotonic() + START_TIMEOUT_S
        while not self._listening.wait(0.05):
            if self._process.poll() is not None:
                self._reader.join(2)
                raise ReasoningReplayUnavailable(
                    f"`{self.command} serve` exited with code {self._process.returncode} before listening: "
                    f"{self._last_words()}"
                )
            if time.monotonic() > deadline:
                self.stop()
                raise ReasoningReplayUnavailable(
                    f"`{self.command} serve` printed no URL within {START_TIMEOUT_S:.0f}s: {self._last_words()}"
                )
        self.index = self._get("/")
        if "findings" not in self.index or "env" not in self.index:
            self.stop()
            raise ReasoningReplayUnavailable(
                f"`{self.command}` is too old for this plugin: its serve has no GET /findings.json; "
                "update reasoning-replay"
            )

    @property
    def env(self) -> Dict[str, str]:
        """The variables `reasoning-replay run` gives an agent, from serve's own index (its `env`)."""
        return dict(self.index["env"])

    def findings_since(self, cursor: int) -> FindingsAnswer:
        return FindingsAnswer.parse(self._get(f"/findings.json?since={cursor}"))

    def _get(self, path: str) -> Dict[str, Any]:
        try:
            with urllib.request.urlopen(self.url + path, timeout=30) as answer:
                return json.load(answer)
        except (urllib.error.URLError, OSError, ValueError) as err:
            state = (
                f"it exited with code {self._process.returncode}: {self._last_words()}"
                if self._process.poll() is not None
                else "it is still running"
            )
            raise ReasoningReplayUnavailable(f"reasoning-replay serve did not answer GET {path} ({err}); {state}") from err

    def stop(self) -> None:
        """SIGTERM, so serve writes its summary; SIGKILL if it does not stop."""
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._reader.join(5)
