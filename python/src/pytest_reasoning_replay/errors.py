"""What the plugin raises and warns with."""
from __future__ import annotations


class ReasoningReplayUnavailable(Exception):
    """serve could not be started or stopped answering: one line saying why and what to do."""


class ReasoningReplayWarning(UserWarning):
    """A contested rule answered as its lenient side, or a test that sent the mocks nothing: shown, never a failure."""
