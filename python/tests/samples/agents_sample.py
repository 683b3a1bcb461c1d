"""Run by tests/test_plugin.py in a pytest of its own (pytester), with the plugin loaded."""
import os
import urllib.error

from urllib_agents import deepseek_agent, gemini_function_response_with_id


def test_conforming_agent(reasoning_replay):
    assert deepseek_agent("Where is order ORD-1234?")
    assert reasoning_replay.requests == 2
    assert reasoning_replay.findings() == []


def test_agent_dropping_reasoning(reasoning_replay):
    deepseek_agent("Where is order ORD-1234?", keep_reasoning=False)


def test_agent_swallowing_the_refusal(reasoning_replay):
    # A "resilient" agent that hides the 400: the test alone would pass.
    try:
        deepseek_agent("Where is order ORD-1234?", keep_reasoning=False)
    except urllib.error.HTTPError:
        pass


def test_contested_rule(reasoning_replay):
    gemini_function_response_with_id()


def test_sends_nothing(reasoning_replay):
    pass


def test_environment(reasoning_replay):
    assert os.environ["OPENAI_BASE_URL"] == reasoning_replay.url + "/openai"
    assert reasoning_replay.base_url("deepseek") == reasoning_replay.url + "/deepseek"
    assert os.environ["DEEPSEEK_API_KEY"] != "a-real-key"


def test_environment_restored_after():
    assert os.environ["OPENAI_BASE_URL"] == "http://the-users-own.invalid"
    assert os.environ["DEEPSEEK_API_KEY"] == "a-real-key"
