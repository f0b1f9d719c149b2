"""The provider SDK conformance suite: converts every MCP catalog of the corpus and every BFCL
function (read as `--from openai`) to each provider target, plain and strict, with the release
CLI, and checks every written tool with the provider's own SDK types and the API rules of
rules.py. Prints, per target and mode, the tools read, written, left out with an error entry
and lost without one, and the tools the provider would reject, by rule, with examples.

Then it holds `tooladapter check --to T` to the same verdict, both ways: on every recorded
live request of provider-payloads/ (each `tools` element alone, as the provider's API reads
it: function tools, built-ins, namespaces, Gemini `Tool`s) and on every tool written above,
`check` must refuse exactly the tools the SDK types and API rules refuse.

Run it through tests/sdk/run (which builds the CLI and the virtualenv). Exit status: 1 when the
self-test fails, when a tool would be rejected or is lost without an error entry, when `check`
and the SDK disagree on a tool, or when the CLI crashes; `--report-only` reports all of that
except a failed self-test and exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import rules

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent

# Targets with a strict mode (`tooladapter convert --help`).
STRICT_TARGETS = ("openai", "openai-responses", "anthropic", "bedrock", "bedrock+anthropic")

LINE_ERROR = re.compile(r"^error: line (\d+):")


# ---------------------------------------------------------------------------------------------
# The self-test: the validator must classify its own fixtures exactly.


def self_test() -> bool:
    """Runs every fixture of fixtures/ through `rules.check`; each must produce exactly the
    rule ids it expects (none for a good tool). Fails too when a rule has no fixture that
    expects it, or a target has no good fixture or no SDK-rejected fixture, so a validator
    that accepts everything (or rejects everything) cannot pass."""
    failures = []
    expected_ids: dict[str, set[str]] = defaultdict(set)
    good: Counter = Counter()
    count = 0
    for path in sorted((HERE / "fixtures").rglob("*.json")):
        case = json.loads(path.read_text())
        target, tool, expect = case["target"], case["tool"], set(case["expect"])
        count += 1
        got = {rule_id for rule_id, _, _ in rules.check(target, tool)}
        if got != expect:
            failures.append(
                f"{path.relative_to(HERE)}: expected {sorted(expect)}, got {sorted(got)}"
            )
        expected_ids[target] |= expect
        if not expect:
            good[target] += 1
    for target in rules.TARGETS:
        for r in rules.rules_for(target):
            if r.id not in expected_ids[target]:
                failures.append(f"rule {r.id} has no {target} fixture that breaks it")
        if not good[target]:
            failures.append(f"{target} has no fixture of a tool it accepts")
        if not any(i.startswith("sdk-") for i in expected_ids[target]):
            failures.append(f"{target} has no fixture its SDK type rejects")
    for f in failures:
        print(f"self-test FAILED: {f}")
    print(
        f"self-test: {count} fixtures, {len(rules.RULES)} rules: {'FAILED' if failures else 'ok'}"
    )
    return not failures


# ---------------------------------------------------------------------------------------------
# The corpus: one unit per CLI run, one or more catalogs per unit.


@dataclass
class Unit:
    """One CLI input: an MCP catalog file, or a BFCL file as NDJSON (one catalog per line)."""

    source: str  # "mcp" or "bfcl"
    label: str
    data: bytes
    ndjson: bool
    catalogs: list[tuple[str, int]]  # (catalog label, tools in it)
    lines: list[bytes] = field(default_factory=list)  # NDJSON lines, for a per-line re-run


def mcp_units(corpus: Path) -> list[Unit]:
    """Every `{"tools": [...]}` catalog of mcp-catalogs/, read as MCP."""
    units = []
    for path in sorted((corpus / "mcp-catalogs").glob("*.json")):
        data = path.read_bytes()
        n = len(json.loads(data)["tools"])
        label = f"mcp-catalogs/{path.name}"
        units.append(Unit("mcp", label, data, False, [(label, n)]))
    return units


def bfcl_units(corpus: Path) -> list[Unit]:
    """BFCL v4 functions, read as OpenAI: each question record's `function` list is one
    catalog (what one request carries); a `multi_turn_func_doc` file, one function per line,
    is one catalog."""
    units = []
    root = corpus / "bfcl"
    for path in sorted((root / "data").rglob("*.json")):
        rel = path.relative_to(root).as_posix()
        records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        if all("function" in r for r in records):
            catalogs = [r["function"] for r in records]
            labels = [f"bfcl/{rel}:{i + 1}" for i in range(len(records))]
        else:
            catalogs = [records]
            labels = [f"bfcl/{rel}"]
        lines = [json.dumps(c, ensure_ascii=False).encode() for c in catalogs]
        units.append(
            Unit(
                "bfcl",
                f"bfcl/{rel}",
                b"\n".join(lines) + b"\n",
                True,
                [(lab, len(c)) for lab, c in zip(labels, catalogs, strict=True)],
                lines,
            )
        )
    return units


# ---------------------------------------------------------------------------------------------
# Converting.


@dataclass
class Catalog:
    """What one catalog gave for one (target, mode): the tools written and the accounting."""

    label: str
    tools_in: int
    tools: list = field(default_factory=list)
    failed: str | None = None  # the CLI's error when the whole catalog was refused
    error_tools: int = 0  # tools named by a report entry of severity error


@dataclass
class Run:
    """One (target, mode) over one unit."""

    catalogs: list[Catalog]
    harness: list[str] = field(default_factory=list)  # crashes, unreadable output


def written_tools(target: str, text: str) -> list:
    """The tool list of one written catalog."""
    doc = json.loads(text)
    if target in ("gemini", "gemini-json", "vertex"):
        return doc["functionDeclarations"] if isinstance(doc, dict) else doc
    if target in ("mcp", *rules.BEDROCK):
        return doc["tools"] if isinstance(doc, dict) else doc
    return doc if isinstance(doc, list) else [doc]


def cli(binary: str, source: str, target: str, strict: bool, ndjson: bool, data: bytes):
    """Runs one conversion; returns (exit code, stdout, report entries, stderr text lines)."""
    args = [binary, "convert", "--from", "mcp" if source == "mcp" else "openai", *rules.cli_args(target)]
    args += ["--report", "json", "--jobs", "1"]
    if strict:
        args.append("--strict")
    if ndjson:
        args.append("--ndjson")
    proc = subprocess.run(args, input=data, capture_output=True, check=False)
    entries, texts = [], []
    for line in proc.stderr.decode(errors="replace").splitlines():
        if line.startswith("{"):
            try:
                entries.append(json.loads(line))
                continue
            except json.JSONDecodeError:
                pass
        texts.append(line)
    return proc.returncode, proc.stdout.decode(), entries, texts


def error_tool_names(entries: list) -> set[str]:
    return {e.get("tool") for e in entries if e.get("severity") == "error"}


def error_tool_runs(entries: list) -> int:
    """Tools with an error entry in an NDJSON report, where names repeat across lines: entries
    of one tool are consecutive, so each run of one name holding an error is one tool."""
    runs, prev, prev_err = 0, object(), False
    for e in entries:
        name = e.get("tool")
        if name != prev:
            runs += prev_err
            prev, prev_err = name, False
        prev_err |= e.get("severity") == "error"
    return runs + prev_err


def convert_single(binary, unit_source, target, strict, label, n_in, data, ndjson=False) -> Run:
    rc, out, entries, texts = cli(binary, unit_source, target, strict, ndjson, data)
    cat = Catalog(label, n_in)
    if rc not in (0, 1):
        return Run([cat], [f"{label}: CLI exited {rc}: {' '.join(texts)[:300]}"])
    if not out.strip():
        cat.failed = (
            " ".join(t for t in texts if t.startswith("error:"))[:300] or f"exit {rc}, no output"
        )
        return Run([cat])
    try:
        cat.tools = written_tools(target, out.strip())
    except (json.JSONDecodeError, KeyError, TypeError) as err:
        return Run([cat], [f"{label}: output is not a {target} catalog: {err}"])
    cat.error_tools = len(error_tool_names(entries))
    return Run([cat])


def convert_unit(binary: str, unit: Unit, target: str, strict: bool) -> Run:
    """Converts one unit; an NDJSON unit whose error entries cannot be told apart per line is
    converted again one line at a time."""
    if not unit.ndjson:
        label, n_in = unit.catalogs[0]
        return convert_single(binary, unit.source, target, strict, label, n_in, unit.data)
    rc, out, entries, texts = cli(binary, unit.source, target, strict, True, unit.data)
    if rc not in (0, 1):
        return Run([], [f"{unit.label}: CLI exited {rc}: {' '.join(texts)[:300]}"])
    failed = {}
    for t in texts:
        m = LINE_ERROR.match(t)
        if m:
            failed[int(m.group(1))] = t[:300]
    outs = [line for line in out.splitlines() if line.strip()]
    live = [i for i in range(len(unit.catalogs)) if i + 1 not in failed]
    if len(outs) != len(live):
        return Run(
            [], [f"{unit.label}: {len(outs)} output lines for {len(live)} converted input lines"]
        )
    cats = [Catalog(label, n) for label, n in unit.catalogs]
    harness = []
    for i, msg in failed.items():
        if 1 <= i <= len(cats):
            cats[i - 1].failed = msg
    for i, text in zip(live, outs, strict=True):
        try:
            cats[i].tools = written_tools(target, text)
        except (json.JSONDecodeError, KeyError, TypeError) as err:
            harness.append(f"{cats[i].label}: output is not a {target} catalog: {err}")
    missing = sum(max(cats[i].tools_in - len(cats[i].tools), 0) for i in live)
    runs = error_tool_runs(entries)
    if runs == missing:
        # Consistent: every missing tool has its error entry; assign them per line.
        for i in live:
            cats[i].error_tools = max(cats[i].tools_in - len(cats[i].tools), 0)
    else:
        for i in live:
            single = convert_single(
                binary,
                unit.source,
                target,
                strict,
                cats[i].label,
                cats[i].tools_in,
                unit.lines[i],
                ndjson=False,
            )
            cats[i] = single.catalogs[0]
            harness.extend(single.harness)
    return Run(cats, harness)


# ---------------------------------------------------------------------------------------------
# `check` against the SDK verdict: on every recorded live request of provider-payloads and on
# every tool the conversions wrote, `tooladapter check --to T` must refuse exactly what the
# SDK types and API rules refuse.

# The recorded `tools` elements of provider-payloads/, by target: each file's elements sent to
# the provider's own API (provenance `endpoint` on its host), or echoed back by it (a
# fixture of the OpenAI or Azure provider packages). Requests recorded against other
# providers (openai-compatible-*, responses-compatible) are not the target's.
PAYLOADS = (
    ("pydantic-ai/openai-chat-completions", ("openai",), ("api.openai.com",)),
    ("pydantic-ai/openai-responses", ("openai-responses",), ("api.openai.com",)),
    ("vercel-ai/openai-responses-echoed", ("openai-responses",), ("/openai/", "/azure/")),
    ("pydantic-ai/anthropic-messages", ("anthropic",), ("api.anthropic.com",)),
    (
        "pydantic-ai/gemini-generate-content",
        ("gemini", "gemini-json"),
        ("generativelanguage.googleapis.com", "aiplatform.googleapis.com"),
    ),
    ("pydantic-ai/gemini-generate-content", ("vertex",), ("aiplatform.googleapis.com",)),
    ("pydantic-ai/openai-compatible-chat-completions", ("mistral",), ("api.mistral.ai",)),
    ("pydantic-ai/openai-compatible-chat-completions", ("cohere",), ("api.cohere.com/v2/",)),
    ("pydantic-ai/openai-compatible-chat-completions", ("ollama",), ("ollama.com/",)),
)


@dataclass
class Verdicts:
    """`check` against the SDK verdict on one target's tools: each tool agrees (both accept,
    both refuse) or not (only `check` refuses it, only the SDK does)."""

    both_accept: int = 0
    both_refuse: int = 0
    check_only: list = field(default_factory=list)
    sdk_only: list = field(default_factory=list)

    def add(self, label: str, checked: list, problems: list) -> None:
        if checked and problems:
            self.both_refuse += 1
        elif not checked and not problems:
            self.both_accept += 1
        elif checked:
            self.check_only.append(f"{label}: check says {checked[0]}")
        else:
            self.sdk_only.append(f"{label}: the SDK says {problems[0]}")

    def disagreements(self) -> int:
        return len(self.check_only) + len(self.sdk_only)

    def as_json(self) -> dict:
        return {
            "both_accept": self.both_accept,
            "both_refuse": self.both_refuse,
            "check_only": self.check_only,
            "sdk_only": self.sdk_only,
        }


def cli_check(binary: str, target: str, lines: list[bytes], jobs: int) -> dict[int, list]:
    """`tooladapter check --to target` of each line alone (NDJSON, one tool or request element
    a line): the findings by line number (1-based), as `pointer: message`."""
    args = [binary, "check", *rules.cli_args(target), "--ndjson", "--report", "json"]
    args += ["--jobs", str(jobs)]
    proc = subprocess.run(args, input=b"\n".join(lines) + b"\n", capture_output=True, check=False)
    found: dict[int, list] = defaultdict(list)
    for line in proc.stdout.decode(errors="replace").splitlines():
        if not line.startswith("{"):
            continue
        e = json.loads(line)
        if e.get("severity") == "error":
            found[int(e.get("line", 0))].append(f"{e.get('pointer')}: {e.get('message', '')[:160]}")
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"check --to {target} exited {proc.returncode}: {proc.stderr[:300]!r}")
    return found


def payload_verdicts(binary: str, corpus: Path, jobs: int) -> dict[str, Verdicts]:
    """`check` against the SDK verdict on every recorded live request element."""
    out: dict[str, Verdicts] = defaultdict(Verdicts)
    root = corpus / "provider-payloads"
    for stem, targets, hosts in PAYLOADS:
        elements = json.loads((root / f"{stem}.tools.json").read_text())
        provenance = json.loads((root / f"{stem}.provenance.json").read_text())
        kept = [
            (i, e)
            for i, (e, p) in enumerate(zip(elements, provenance, strict=True))
            if any(h in (p.get("endpoint") or p.get("fixture") or "") for h in hosts)
        ]
        lines = [json.dumps(e, ensure_ascii=False).encode() for _, e in kept]
        for target in targets:
            found = cli_check(binary, target, lines, jobs)
            for n, (i, element) in enumerate(kept, start=1):
                problems = rules.check_element(target, element)
                out[target].add(f"{stem}[{i}]", found.get(n, []), problems)
    return out


def output_verdicts(binary: str, tallies: dict, jobs: int) -> dict[tuple[str, str], Verdicts]:
    """`check` against the SDK verdict on every tool a conversion wrote, each alone."""
    out: dict[tuple[str, str], Verdicts] = {}
    for (target, mode), per_source in tallies.items():
        tools = [(label, tool) for t in per_source.values() for label, tool in t.written_tools]
        verdicts = Verdicts()
        lines = [json.dumps(tool, ensure_ascii=False).encode() for _, tool in tools]
        found = cli_check(binary, target, lines, jobs)
        for n, (label, tool) in enumerate(tools, start=1):
            verdicts.add(label, found.get(n, []), rules.check(target, tool))
        out[(target, mode)] = verdicts
    return out


def print_verdicts(title: str, verdicts: dict, examples: int) -> int:
    """Prints one table of `check` against the SDK; returns the disagreements."""
    print(f"\n== check against the SDK verdict: {title}")
    print("  " + "target".ljust(26) + "  both accept  both refuse  only check  only SDK")
    total = 0
    for key, v in verdicts.items():
        name = key if isinstance(key, str) else " ".join(key)
        print(
            f"  {name:<26}  {v.both_accept:>11}  {v.both_refuse:>11}"
            f"  {len(v.check_only):>10}  {len(v.sdk_only):>8}"
        )
        for ex in (v.check_only + v.sdk_only)[:examples]:
            print(f"      e.g. {ex}")
        total += v.disagreements()
    return total


# ---------------------------------------------------------------------------------------------
# Checking and reporting.


@dataclass
class Tally:
    """Counts of one (target, mode, source)."""

    tools_in: int = 0
    written: int = 0
    left_out_error: int = 0
    left_out_catalog: int = 0
    lost_silently: int = 0
    written_despite_error: int = 0
    invented: int = 0
    rejected: int = 0
    by_reason: Counter = field(default_factory=Counter)
    examples: dict = field(default_factory=lambda: defaultdict(list))
    lost_examples: list = field(default_factory=list)
    harness: list = field(default_factory=list)
    written_tools: list = field(default_factory=list)  # (label, tool), for `check`

    def add_catalog(self, cat: Catalog, target: str, max_examples: int) -> None:
        self.tools_in += cat.tools_in
        if cat.failed is not None:
            self.left_out_catalog += cat.tools_in
            return
        out = len(cat.tools)
        self.written += out
        missing = cat.tools_in - out
        if missing < 0:
            self.invented += -missing
            missing = 0
        left = min(cat.error_tools, missing)
        self.left_out_error += left
        self.written_despite_error += cat.error_tools - left
        if missing > left:
            self.lost_silently += missing - left
            if len(self.lost_examples) < max_examples:
                self.lost_examples.append(
                    f"{cat.label}: {cat.tools_in} in, {out} out, {cat.error_tools} error entries"
                )
        for i, tool in enumerate(cat.tools):
            self.written_tools.append((f"{cat.label}[{i}]", tool))
            problems = rules.check(target, tool)
            if not problems:
                continue
            self.rejected += 1
            seen = set()
            for rule_id, pointer, detail in problems:
                if rule_id in seen:
                    continue
                seen.add(rule_id)
                self.by_reason[rule_id] += 1
                if len(self.examples[rule_id]) < max_examples:
                    name = rules.tool_name(target, tool)
                    self.examples[rule_id].append(
                        f"{cat.label} :: {name} :: {pointer or '/'} ({detail})"
                    )

    def failing(self) -> bool:
        return bool(
            self.rejected
            or self.lost_silently
            or self.written_despite_error
            or self.invented
            or self.harness
        )

    def as_json(self) -> dict:
        return {
            "tools_in": self.tools_in,
            "written": self.written,
            "left_out_error_entry": self.left_out_error,
            "left_out_catalog_error": self.left_out_catalog,
            "lost_silently": self.lost_silently,
            "written_despite_error_entry": self.written_despite_error,
            "invented": self.invented,
            "checked": self.written,
            "rejected": self.rejected,
            "rejected_by_reason": dict(sorted(self.by_reason.items())),
            "examples": {k: v for k, v in sorted(self.examples.items())},
            "lost_examples": self.lost_examples,
            "harness": self.harness,
        }


COLUMNS = (
    ("in", "tools_in"),
    ("written", "written"),
    ("left out: error entry", "left_out_error"),
    ("left out: catalog error", "left_out_catalog"),
    ("lost silently", "lost_silently"),
    ("written despite error", "written_despite_error"),
    ("checked", "written"),
    ("rejected", "rejected"),
)


def print_config(target: str, mode: str, tallies: dict[str, Tally]) -> None:
    print(f"\n== {target} ({mode})")
    widths = [max(len(h), 7) for h, _ in COLUMNS]
    print(
        "  "
        + "source".ljust(6)
        + "".join(f"  {h:>{w}}" for (h, _), w in zip(COLUMNS, widths, strict=True))
    )
    for source, t in tallies.items():
        cells = "".join(
            f"  {getattr(t, a):>{w}}" for (_, a), w in zip(COLUMNS, widths, strict=True)
        )
        print("  " + source.ljust(6) + cells)
    reasons = sorted(
        {r for t in tallies.values() for r in t.by_reason},
        key=lambda r: (-sum(t.by_reason[r] for t in tallies.values()), r),
    )
    if reasons:
        print("  rejected, by reason (tools; one tool may break several rules):")
        for r in reasons:
            counts = "  ".join(f"{s} {t.by_reason[r]}" for s, t in tallies.items())
            print(f"    {r:<40} {counts}")
            for t in tallies.values():
                for ex in t.examples.get(r, []):
                    print(f"      e.g. {ex}")
    for s, t in tallies.items():
        for ex in t.lost_examples:
            print(f"  lost silently ({s}): {ex}")
        for h in t.harness:
            print(f"  HARNESS ({s}): {h}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--cli", default=str(REPO / "target/release/tooladapter"), help="the tooladapter binary"
    )
    parser.add_argument(
        "--corpus", default=os.environ.get("TOOLADAPTER_CORPUS", str(REPO.parent / "shared/corpus"))
    )
    parser.add_argument(
        "--report-only", action="store_true", help="report rejections and losses, exit 0"
    )
    parser.add_argument(
        "--self-test", action="store_true", help="run the validator's self-test only"
    )
    parser.add_argument(
        "--json",
        default=str(REPO / "target/sdk-report.json"),
        help="where to write the numbers as JSON",
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="CLI runs at once")
    parser.add_argument("--examples", type=int, default=3, help="examples per reason")
    parser.add_argument("--targets", help="comma-separated subset of: " + ",".join(rules.TARGETS))
    args = parser.parse_args()

    if not self_test():
        return 1
    if args.self_test:
        return 0

    targets = args.targets.split(",") if args.targets else list(rules.TARGETS)
    unknown = [t for t in targets if t not in rules.TARGETS]
    if unknown:
        parser.error(f"unknown targets {unknown}; known: {', '.join(rules.TARGETS)}")
    started = time.monotonic()
    corpus = Path(args.corpus)
    units = mcp_units(corpus) + bfcl_units(corpus)
    if not any(u.source == "mcp" for u in units) or not any(u.source == "bfcl" for u in units):
        print(f"no MCP catalogs or no BFCL functions under {corpus} (set TOOLADAPTER_CORPUS)")
        return 1
    n_mcp = sum(n for u in units if u.source == "mcp" for _, n in u.catalogs)
    n_bfcl = sum(n for u in units if u.source == "bfcl" for _, n in u.catalogs)
    n_catalogs = sum(u.source == "mcp" for u in units)
    print(f"corpus {corpus}: {n_catalogs} MCP catalogs ({n_mcp} tools), BFCL {n_bfcl} functions")
    configs = [(t, False) for t in targets] + [(t, True) for t in targets if t in STRICT_TARGETS]
    configs.sort(key=lambda c: (targets.index(c[0]), c[1]))

    tasks = [(u, t, s) for t, s in configs for u in units]
    with ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
        results = list(pool.map(lambda task: convert_unit(args.cli, *task), tasks))

    tallies: dict[tuple[str, str], dict[str, Tally]] = {}
    for (unit, target, strict), run in zip(tasks, results, strict=True):
        mode = "strict" if strict else "plain"
        per_source = tallies.setdefault((target, mode), {"mcp": Tally(), "bfcl": Tally()})
        tally = per_source[unit.source]
        tally.harness.extend(run.harness)
        for cat in run.catalogs:
            tally.add_catalog(cat, target, args.examples)

    failing = False
    summary = {}
    for (target, mode), per_source in tallies.items():
        print_config(target, mode, per_source)
        failing |= any(t.failing() for t in per_source.values())
        summary.setdefault(target, {})[mode] = {s: t.as_json() for s, t in per_source.items()}

    print("\n== summary: tools rejected (checked)")
    for (target, mode), per_source in tallies.items():
        cells = "  ".join(f"{s} {t.rejected} ({t.written})" for s, t in per_source.items())
        lost = sum(t.lost_silently for t in per_source.values())
        left = sum(t.left_out_error + t.left_out_catalog for t in per_source.values())
        print(
            f"  {target:<17} {mode:<7} {cells}   left out with error {left}, lost silently {lost}"
        )
    payloads = payload_verdicts(args.cli, corpus, args.jobs)
    outputs = output_verdicts(args.cli, tallies, args.jobs)
    disagreements = print_verdicts(
        "recorded live requests (provider-payloads, each element alone)", payloads, args.examples
    )
    disagreements += print_verdicts("every tool written above", outputs, args.examples)
    print(f"  disagreements: {disagreements}")
    failing |= disagreements > 0
    summary["check_against_sdk"] = {
        "payloads": {t: v.as_json() for t, v in payloads.items()},
        "outputs": {f"{t} {m}": v.as_json() for (t, m), v in outputs.items()},
    }
    print(f"({time.monotonic() - started:.1f} s)")
    Path(args.json).write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n")
    print(f"numbers as JSON: {args.json}")
    if failing:
        if args.report_only:
            print("provider SDK conformance: tools rejected or lost (--report-only: not failing)")
            return 0
        print(
            "provider SDK conformance: FAILED (tools rejected or lost, or check and the SDK "
            "disagree; see above)"
        )
        return 1
    print("provider SDK conformance: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
