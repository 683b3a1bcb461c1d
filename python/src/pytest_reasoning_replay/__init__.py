"""pytest plugin for reasoning-replay: the `reasoning_replay` fixture runs your agent's requests against the
provider mocks of `reasoning-replay serve` and fails the test with the rule a request broke."""
from .errors import ReasoningReplayUnavailable, ReasoningReplayWarning
from .findings import Finding, FlaggedRequest
from .plugin import ReasoningReplay

__all__ = ["Finding", "FlaggedRequest", "ReasoningReplay", "ReasoningReplayUnavailable", "ReasoningReplayWarning"]
