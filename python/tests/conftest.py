import os
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from pytest_reasoning_replay.cli_command import resolve_command
from pytest_reasoning_replay.errors import ReasoningReplayUnavailable

pytest_plugins = ["pytester"]
# The samples are run by the tests below, in a pytest of their own; never collected here.
collect_ignore = ["samples"]

SAMPLES = Path(__file__).parent / "samples"


def _installed() -> bool:
    """Installed with pip, pytest loads the plugin by its pytest11 entry point; from a source tree it needs -p."""
    group = entry_points()
    found = group.select(group="pytest11") if hasattr(group, "select") else group.get("pytest11", [])
    return any(e.value == "pytest_reasoning_replay.plugin" for e in found)


@pytest.fixture
def run_samples(pytester, monkeypatch):
    """Runs the sample tests in a pytest of their own (a subprocess: its own environment, its own serve)."""
    monkeypatch.setenv("OPENAI_BASE_URL", "http://the-users-own.invalid")
    monkeypatch.setenv("DEEPSEEK_API_KEY", "a-real-key")
    for sample in SAMPLES.glob("*.py"):
        name = "test_agents" if sample.stem == "agents_sample" else sample.stem
        pytester.makepyfile(**{name: sample.read_text()})
    if not _installed():
        source = str(Path(__file__).resolve().parent.parent / "src")
        monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [source, os.environ.get("PYTHONPATH")])))

    def run(*args):
        plugin = [] if _installed() else ["-p", "pytest_reasoning_replay.plugin"]
        return pytester.runpytest_subprocess(*plugin, "-p", "no:cacheprovider", "-rA", *args, timeout=300)

    return run


@pytest.fixture
def cli():
    """The reasoning-replay CLI these tests run, or a visible skip: they judge real requests against its serve."""
    try:
        return resolve_command(None, None, Path.cwd())
    except ReasoningReplayUnavailable as err:
        pytest.skip(str(err))
