"""Where the reasoning-replay CLI is: the command the user named, else one on PATH or in node_modules/.bin."""
from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path
from typing import List, Optional

from .errors import ReasoningReplayUnavailable

ENV_VARIABLE = "REASONING_REPLAY_CMD"
HOW_TO_NAME_IT = (
    "install it (npm install --save-dev reasoning-replay) or name the command with "
    f"--reasoning-replay-cmd, {ENV_VARIABLE} or the reasoning_replay_cmd ini option"
)


def resolve_command(option: Optional[str], ini: Optional[str], rootdir: Path) -> List[str]:
    """The CLI as an argv prefix: --reasoning-replay-cmd, then $REASONING_REPLAY_CMD, then the ini option, then
    `reasoning-replay` on PATH, then node_modules/.bin/reasoning-replay in the rootdir or a folder above it (a
    Python project that lists the npm package as a dev dependency). Never npx: it may fetch from the registry."""
    named = option or os.environ.get(ENV_VARIABLE) or ini
    if named:
        argv = shlex.split(named)
        if not argv:
            raise ReasoningReplayUnavailable(f"the reasoning-replay command is empty; {HOW_TO_NAME_IT}")
        return argv
    on_path = shutil.which("reasoning-replay")
    if on_path:
        return [on_path]
    for folder in [rootdir, *rootdir.parents]:
        for name in ("reasoning-replay", "reasoning-replay.cmd"):
            candidate = folder / "node_modules" / ".bin" / name
            if candidate.is_file():
                return [str(candidate)]
    raise ReasoningReplayUnavailable(
        "reasoning-replay is not installed here: no reasoning-replay on PATH and no "
        f"node_modules/.bin/reasoning-replay in {rootdir} or above; {HOW_TO_NAME_IT}"
    )
