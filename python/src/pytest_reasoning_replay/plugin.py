"""The pytest plugin: the `reasoning_replay` fixture points the SDKs at reasoning-replay's provider mocks, and a
test that sent a request the provider would refuse fails with the rule, the request and the rule's source."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, Generator, List, Optional

import pytest

from .cli_command import resolve_command
from .errors import ReasoningReplayUnavailable, ReasoningReplayWarning
from .findings import FindingsAnswer, FlaggedRequest, failure_text, warning_texts
from .serve_process import ServeProcess

_SERVE = pytest.StashKey[ServeProcess]()
_ACTIVE = pytest.StashKey["ReasoningReplay"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("reasoning-replay", "reasoning-replay: judge an agent's reasoning replay")
    group.addoption(
        "--reasoning-replay-cmd",
        dest="reasoning_replay_cmd",
        default=None,
        help="the reasoning-replay CLI (e.g. 'npx reasoning-replay'); default: $REASONING_REPLAY_CMD, the "
        "reasoning_replay_cmd ini option, reasoning-replay on PATH, then node_modules/.bin/reasoning-replay",
    )
    group.addoption(
        "--reasoning-replay-strict",
        dest="reasoning_replay_strict",
        action="store_true",
        default=None,
        help="contested rules refuse (serve --strict): failures instead of warnings",
    )
    group.addoption(
        "--reasoning-replay-log",
        dest="reasoning_replay_log",
        default=None,
        help="keep serve's request log here (JSON lines; `reasoning-replay report --from-log FILE` judges it); "
        "default: a file under pytest's temporary folder",
    )
    parser.addini("reasoning_replay_cmd", "the reasoning-replay CLI, as --reasoning-replay-cmd", default="")
    parser.addini("reasoning_replay_strict", "as --reasoning-replay-strict", type="bool", default=False)


class ReasoningReplay:
    """What a test sees: where the mocks are, the variables set for it, and what its requests broke so far."""

    def __init__(self, serve: ServeProcess):
        self._serve = serve
        self.url: str = serve.url
        self.env: Dict[str, str] = serve.env
        self.log_file = str(serve.log_file)
        start = serve.findings_since(serve.cursor)
        self._cursor = serve.cursor = start.next
        self._requests_before = start.requests
        self._answer: Optional[FindingsAnswer] = None

    def base_url(self, provider: str) -> str:
        """The mock of one provider spec id (`deepseek`, `anthropic`, ...): pass it where an SDK reads no variable."""
        name = f"REASONING_REPLAY_{re.sub(r'[^A-Z0-9]+', '_', provider.upper())}_BASE_URL"
        if name not in self.env:
            known = sorted(p["id"] for p in self._serve.index.get("providers", []))
            raise ValueError(f"no provider mock {provider!r}; serve has {', '.join(known)}")
        return self.env[name]

    def refresh(self) -> FindingsAnswer:
        self._answer = self._serve.findings_since(self._cursor)
        self._serve.cursor = self._answer.next
        return self._answer

    def findings(self) -> List[FlaggedRequest]:
        """The requests this test sent so far that broke a rule, warned, or reached no mock."""
        return list(self.refresh().flagged)

    @property
    def requests(self) -> int:
        """How many requests this test sent the mocks so far."""
        return self.refresh().requests - self._requests_before


@pytest.fixture(scope="session")
def reasoning_replay_serve(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Generator[ServeProcess, None, None]:
    """One `reasoning-replay serve` for the session, started on first use (a test that never asks starts none)."""
    config = request.config
    log_option = config.getoption("reasoning_replay_log")
    log_file = Path(log_option).resolve() if log_option else tmp_path_factory.mktemp("reasoning-replay") / "serve.jsonl"
    strict = bool(config.getoption("reasoning_replay_strict") or config.getini("reasoning_replay_strict"))
    try:
        argv = resolve_command(config.getoption("reasoning_replay_cmd"), config.getini("reasoning_replay_cmd"), config.rootpath)
        serve = ServeProcess(argv, log_file, strict)
        serve.wait_until_answering()
    except ReasoningReplayUnavailable as err:
        problem = str(err)
    else:
        problem = None
    if problem is not None:  # outside the except: one line, no chain of tracebacks
        pytest.fail(f"reasoning-replay: {problem}", pytrace=False)
    config.stash[_SERVE] = serve
    yield serve
    serve.stop()


@pytest.fixture
def reasoning_replay(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, reasoning_replay_serve: ServeProcess
) -> ReasoningReplay:
    """Sets the variables `reasoning-replay run` gives an agent (the SDKs' base-URL variables, one
    REASONING_REPLAY_<ID>_BASE_URL per provider, placeholder API keys: a real key never reaches the mocks) for this
    test; after it, fails the test on every request that broke a provider rule and warns on contested ones."""
    try:
        replay = ReasoningReplay(reasoning_replay_serve)
    except ReasoningReplayUnavailable as err:
        problem = str(err)
    else:
        problem = None
    if problem is not None:
        pytest.fail(f"reasoning-replay: {problem}", pytrace=False)
    for name, value in replay.env.items():
        monkeypatch.setenv(name, value)
    request.node.stash[_ACTIVE] = replay
    return replay


# Outcomes the verdict must not turn into a failure: the test chose them, or the user stopped the run.
_PASS_THROUGH = (pytest.skip.Exception, pytest.xfail.Exception, pytest.exit.Exception, KeyboardInterrupt)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    """After the test body (before fixture teardown): its requests' verdict, as a failure or warnings."""
    raised: Optional[BaseException] = None
    try:
        result = yield
    except _PASS_THROUGH:
        raise
    except BaseException as err:  # the test's own failure: kept, and shown under the findings that explain it
        raised = err
        result = None
    replay = item.stash.get(_ACTIVE, None)
    if replay is None:
        if raised is not None:
            raise raised
        return result
    try:
        answer = replay.refresh()
    except ReasoningReplayUnavailable as err:
        unanswered = str(err)
    else:
        unanswered = None
    if unanswered is not None:
        pytest.fail(f"reasoning-replay: {unanswered}", pytrace=False)
    flagged = list(answer.flagged)
    for text in warning_texts(flagged):
        item.warn(ReasoningReplayWarning(text))
    if any(f.verdict == "fail" for f in flagged):
        message = failure_text(flagged, replay.log_file, raised)
        if answer.dropped:
            message += f"\n  ({answer.dropped} older flagged requests were no longer held by serve)"
        pytest.fail(message, pytrace=False)  # the test's own error is one line in it, not a second traceback
    if raised is not None:
        raise raised
    if answer.requests == replay._requests_before:
        item.warn(
            ReasoningReplayWarning(
                "reasoning-replay: the test sent no request to the mocks, so nothing was judged; an SDK finds them "
                "through its base-URL variable (set by the fixture) or reasoning_replay.base_url('<provider>') "
                "passed in code"
            )
        )
    return result


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:  # type: ignore[no-untyped-def]
    serve = config.stash.get(_SERVE, None)
    if serve is None:
        return
    summary = serve.summary or "no summary (it did not stop cleanly)"
    terminalreporter.write_line(f"reasoning-replay serve: {summary}; log: {serve.log_file}")
