"""The plugin judged from outside: sample test files run in a pytest of their own against the real
`reasoning-replay serve`, and their outcomes and output read back."""
import sys

import pytest

from pytest_reasoning_replay.cli_command import resolve_command
from pytest_reasoning_replay.errors import ReasoningReplayUnavailable
from pytest_reasoning_replay.findings import FindingsAnswer, failure_text


def test_a_conforming_agent_passes_and_a_broken_one_fails_naming_rule_request_and_source(cli, run_samples):
    result = run_samples("test_agents.py")
    result.assert_outcomes(passed=5, failed=2, warnings=3)
    result.stdout.fnmatch_lines(
        [
            "PASSED test_agents.py::test_conforming_agent",
            "PASSED test_agents.py::test_contested_rule",
            "FAILED test_agents.py::test_agent_dropping_reasoning*",
            "FAILED test_agents.py::test_agent_swallowing_the_refusal*",
        ],
        consecutive=False,
    )
    out = result.stdout.str()
    # Each broken agent's failure names the rule, the request (its call and path) and the rule's source.
    failure = out[out.index("_ test_agent_swallowing_the_refusal _") :]
    assert "reasoning-replay: must-echo broken (1 request the provider would refuse)" in failure
    assert "request #" in failure and "POST /deepseek/chat/completions -> 400 (deepseek, route deepseek, call 1" in failure
    assert "rule: must-echo (reasoning-content-not-passed-back)" in failure
    assert "      source: https://" in failure  # serve's own test pins the URLs to the provider spec's
    # The agent that let the HTTPError through still gets the findings first, its own error after.
    dropping = out[out.index("_ test_agent_dropping_reasoning _") : out.index("_ test_agent_swallowing_the_refusal _")]
    assert "rule: must-echo" in dropping and "the test itself raised HTTPError: HTTP Error 400" in dropping
    assert "direct cause" not in dropping and "Traceback" not in dropping
    # A contested rule warns with both sides' sources; a test that sent nothing warns that nothing was judged.
    result.stdout.fnmatch_lines(["*contested rule strict-schema (function-response-id)*sources disagree: https://*"])
    assert out.count("the test sent no request to the mocks") == 2
    result.stdout.fnmatch_lines(["reasoning-replay serve: * request(s): *; log: *serve.jsonl"])


def test_strict_turns_a_contested_warning_into_a_failure(cli, run_samples):
    result = run_samples("test_agents.py", "-k", "contested", "--reasoning-replay-strict")
    result.assert_outcomes(failed=1, deselected=6)
    result.stdout.fnmatch_lines(["*rule: contested rule strict-schema (function-response-id)*"])


def test_a_missing_cli_is_one_clear_error_and_tests_without_the_fixture_still_run(run_samples):
    result = run_samples("test_agents.py", "-k", "conforming or restored", "--reasoning-replay-cmd", "/nonexistent/rr")
    result.assert_outcomes(passed=1, errors=1, deselected=5)
    # The error is that one line, no chain of tracebacks.
    result.stdout.fnmatch_lines(
        [
            "*ERROR at setup of test_conforming_agent*",
            "reasoning-replay: cannot start `/nonexistent/rr serve`: No such file or directory; install *",
            "=*",
        ],
        consecutive=True,
    )
    assert "Traceback" not in result.stdout.str() and "exception" not in result.stdout.str()


def test_a_command_that_is_not_serve_says_what_it_printed(run_samples):
    fake = f"{sys.executable} -c \"import sys; sys.exit('no such command: serve')\""
    result = run_samples("test_agents.py", "-k", "conforming", "--reasoning-replay-cmd", fake)
    result.assert_outcomes(errors=1, deselected=6)
    result.stdout.fnmatch_lines(["*exited with code 1 before listening: no such command: serve*"])


def test_the_cli_is_found_by_option_then_environment_then_ini_then_path_then_node_modules(tmp_path, monkeypatch):
    monkeypatch.setenv("REASONING_REPLAY_CMD", "from-env serve-arg")
    assert resolve_command("from-option --flag", "from-ini", tmp_path) == ["from-option", "--flag"]
    assert resolve_command(None, "from-ini", tmp_path) == ["from-env", "serve-arg"]
    monkeypatch.delenv("REASONING_REPLAY_CMD")
    assert resolve_command(None, "npx reasoning-replay", tmp_path) == ["npx", "reasoning-replay"]
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(ReasoningReplayUnavailable, match="not installed here.*--reasoning-replay-cmd"):
        resolve_command(None, "", tmp_path / "project" / "sub")
    bin_dir = tmp_path / "node_modules" / ".bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "reasoning-replay").write_text("#!/bin/sh\n")
    assert resolve_command(None, "", tmp_path / "project" / "sub") == [str(bin_dir / "reasoning-replay")]


def test_a_failure_without_a_finding_still_names_the_request():
    answer = FindingsAnswer.parse(
        {
            "version": 1,
            "requests": 3,
            "next": 2,
            "dropped": 0,
            "flagged": [
                {
                    "n": 1,
                    "verdict": "fail",
                    "request": {"method": "POST", "path": "/deepsek/chat/completions", "status": 404},
                    "findings": [],
                    "miss": {"reason": "unknown-provider", "message": 'no provider "deepsek" here'},
                }
            ],
        }
    )
    text = failure_text(list(answer.flagged), "serve.jsonl", None)
    assert text.startswith("reasoning-replay: provider-accepts broken (1 request the provider would refuse)")
    assert "request POST /deepsek/chat/completions -> 404" in text
    assert 'no mock took it: no provider "deepsek" here' in text


def test_an_answer_of_another_version_is_refused_not_guessed():
    with pytest.raises(ReasoningReplayUnavailable, match="version 2"):
        FindingsAnswer.parse({"version": 2, "requests": 0, "next": 0, "dropped": 0, "flagged": []})
