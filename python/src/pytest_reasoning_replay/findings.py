"""What serve's GET /findings.json answers (specs/schema/serve-findings.schema.json), and how a test shows it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from .errors import ReasoningReplayUnavailable


@dataclass(frozen=True)
class Finding:
    """One rule a request broke, or warned on."""

    rule: str
    rejection: str
    detail: Optional[str]
    #: A contested rule answered as its lenient side: shown as a warning, never a failure.
    warning: bool
    contested: bool
    #: Where the rule is written (the provider spec's sources); a contested rule's are both sides.
    sources: Tuple[str, ...]
    via: Optional[str]

    def headline(self) -> str:
        contested = "contested rule " if self.contested else ""
        return f"{contested}{self.rule} ({self.rejection})"

    def source_line(self) -> str:
        if not self.sources:
            return "source: none named in the provider spec"
        label = "sources disagree" if self.contested else "source"
        return f"{label}: {', '.join(self.sources)}"


@dataclass(frozen=True)
class FlaggedRequest:
    """A request that broke a rule (verdict fail), only warned (warn), or reached no mock (a miss, fail)."""

    n: int
    verdict: str
    method: str
    path: str
    status: int
    seq: Optional[int]
    provider: Optional[str]
    route: Optional[str]
    call: Optional[int]
    client: Optional[str]
    findings: Tuple[Finding, ...]
    miss: Optional[str]

    def describe(self) -> str:
        """`request #2 POST /deepseek/chat/completions -> 400 (deepseek, route deepseek, call 1)`."""
        number = f" #{self.seq}" if self.seq is not None else ""
        where = ", ".join(
            part
            for part in (
                self.provider,
                f"route {self.route}" if self.route else None,
                f"call {self.call}" if self.call is not None else None,
                self.client,
            )
            if part
        )
        return f"request{number} {self.method} {self.path} -> {self.status}" + (f" ({where})" if where else "")

    @property
    def refusing(self) -> List[Finding]:
        return [f for f in self.findings if not f.warning]

    @property
    def warnings(self) -> List[Finding]:
        return [f for f in self.findings if f.warning]


@dataclass(frozen=True)
class FindingsAnswer:
    requests: int
    next: int
    dropped: int
    flagged: Tuple[FlaggedRequest, ...]

    @staticmethod
    def parse(raw: Dict[str, Any]) -> "FindingsAnswer":
        if raw.get("version") != 1:
            raise ReasoningReplayUnavailable(
                f"GET /findings.json answered version {raw.get('version')!r}; this plugin reads version 1: "
                "update pytest-reasoning-replay"
            )
        return FindingsAnswer(
            requests=raw["requests"],
            next=raw["next"],
            dropped=raw["dropped"],
            flagged=tuple(_flagged(item) for item in raw["flagged"]),
        )


def _flagged(item: Dict[str, Any]) -> FlaggedRequest:
    request = item["request"]
    miss = item.get("miss")
    return FlaggedRequest(
        n=item["n"],
        verdict=item["verdict"],
        method=request["method"],
        path=request["path"],
        status=request["status"],
        seq=request.get("seq"),
        provider=request.get("provider"),
        route=request.get("route"),
        call=request.get("call"),
        client=request.get("client"),
        findings=tuple(
            Finding(
                rule=f["rule"],
                rejection=f["rejection"],
                detail=f.get("detail"),
                warning=f["warning"],
                contested=bool(f.get("contested")),
                sources=tuple(f["sources"]),
                via=f.get("via"),
            )
            for f in item["findings"]
        ),
        miss=miss["message"] if miss else None,
    )


def failure_text(flagged: List[FlaggedRequest], log_file: str, raised: Optional[BaseException]) -> str:
    """The failure a test gets: per broken request, each rule with its detail and source; then the log."""
    failed = [f for f in flagged if f.verdict == "fail"]
    # The rules first: pytest's one-line summary keeps only the start of this line.
    rules = list(dict.fromkeys(f.rule for request in failed for f in request.refusing))
    if any(not request.refusing for request in failed):
        rules.append("provider-accepts")
    count = f"{len(failed)} request{'s' if len(failed) != 1 else ''}"
    lines = [f"reasoning-replay: {', '.join(rules)} broken ({count} the provider would refuse)"]
    for request in failed:
        lines.append(f"  {request.describe()}")
        for finding in request.refusing:
            lines.append(f"    rule: {finding.headline()}" + (f" via {finding.via}" if finding.via else ""))
            if finding.detail:
                lines.append(f"      {finding.detail}")
            lines.append(f"      {finding.source_line()}")
        if request.miss:
            lines.append(f"    no mock took it: {request.miss}")
        elif not request.refusing:
            lines.append(f"    rule: provider-accepts (the mock answered {request.status} without a finding)")
    if raised is not None:
        first = (str(raised).strip().splitlines() or [""])[0][:300]
        lines.append(f"  the test itself raised {type(raised).__name__}: {first}")
    lines.append(f"  serve log: {log_file} (reasoning-replay report --from-log judges it per client)")
    return "\n".join(lines)


def warning_texts(flagged: List[FlaggedRequest]) -> List[str]:
    """One warning per contested finding answered leniently, naming the request and both sides' sources."""
    return [
        f"reasoning-replay: {finding.headline()} on {request.describe()}"
        + (f": {finding.detail}" if finding.detail else "")
        + f"; accepted as its lenient side; {finding.source_line()}"
        for request in flagged
        for finding in request.warnings
    ]
