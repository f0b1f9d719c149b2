"""One run, one machine: tooladapter against what a Python user would otherwise call.

Reads the corpus's MCP catalogs (``$TOOLADAPTER_CORPUS/mcp-catalogs``, default
``../shared/corpus`` beside the repository), makes compact copies in memory, and converts every
tool with each library. Each row times passes over the whole corpus: after set-up the garbage
collector is frozen (``gc.freeze()``: the set-up's objects are not traversed again; ``--no-freeze``
leaves it as it is), one warm-up pass each, then ``--samples`` passes (at least 11) with the
two contenders interleaved (ours, theirs, ours, …, so a slow spell of the machine falls on
both), and the median of each is reported with the spread (the lowest and highest sample),
and beside the ratio of wall times the ratio of median CPU times (``time.thread_time``: on a
shared machine it leaves out the spells a contender waited for a core):

- MCP -> OpenAI: LiteLLM's ``transform_mcp_tool_to_openai_tool`` (its input is the MCP SDK's
  ``Tool`` model, so dict in pays ``Tool.model_validate``; a caller already holding models is
  shown too).
- OpenAI strict: the OpenAI Agents SDK's ``ensure_strict_json_schema``; pydantic-ai's
  ``OpenAIJsonSchemaTransformer(strict=True)``.
- Gemini: pydantic-ai's ``GoogleJsonSchemaTransformer``.
- Copies: a hand-written deep-copy comprehension into OpenAI's envelope (the least any
  conversion returning new objects does), and LiteLLM followed by ``copy.deepcopy``; with
  ``share=True`` (the caller's untouched schemas in the output) LiteLLM as it is.
- Threads: the dict row on two threads against one (the GIL is held only while the input is
  read and the output built).
- Stages: where a dict-to-dict conversion's time goes (the input walk, the conversion, the
  output build), each measured as the difference of two rows.

"dict" rows take and give Python data (``json.loads`` output in, dicts out); the "models" row
takes the MCP SDK's ``Tool`` models (tooladapter reads each through its ``model_dump``) and
gives dicts; "bytes" rows take the catalog's JSON text and give JSON text (the others wrapped
in ``json.loads``/``json.dumps``). The versions of Python and of every package, and the load
average before and after, are printed with the table.

Install the competitors only for this (pinned in bench/requirements.txt):
``pip install -r python/bench/requirements.txt``.
"""

import argparse
import concurrent.futures
import copy
import gc
import json
import os
import pathlib
import platform
import statistics
import sys
import time
import warnings

import tooladapter as ta


def corpus_catalogs():
    root = pathlib.Path(__file__).resolve().parents[2]
    corpus = pathlib.Path(os.environ.get("TOOLADAPTER_CORPUS", root.parent / "shared" / "corpus"))
    catalogs = []
    for path in sorted((corpus / "mcp-catalogs").glob("*.json")):
        doc = json.loads(path.read_bytes())
        tools = doc.get("tools") if isinstance(doc, dict) else None
        if isinstance(tools, list) and tools:
            catalogs.append({"tools": tools})
    return catalogs


def timed(fn):
    """Wall seconds and the thread's CPU seconds of one call of ``fn``: on a shared machine the
    CPU time leaves out the spells the thread waited for a core."""
    start, cpu = time.perf_counter(), time.thread_time()
    fn()
    return time.perf_counter() - start, time.thread_time() - cpu


def interleaved(ours, other, samples):
    """Median wall seconds of ``samples`` passes of each, the two alternating after one warm-up
    pass each; with each median, the lowest and highest sample, and the median CPU seconds."""
    ours(), other()
    mine, theirs = [], []
    for _ in range(samples):
        mine.append(timed(ours))
        theirs.append(timed(other))
    return [(statistics.median(w for w, _ in t), min(w for w, _ in t), max(w for w, _ in t),
             statistics.median(c for _, c in t)) for t in (mine, theirs)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=11, help="passes per contender and row (at least 11)")
    parser.add_argument("--no-freeze", action="store_true", help="leave the garbage collector unfrozen")
    args = parser.parse_args()
    if args.samples < 11:
        parser.error("--samples must be at least 11 (medians of fewer swing with the machine)")

    warnings.filterwarnings("ignore")
    import logging

    logging.disable(logging.WARNING)
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    from agents.strict_schema import ensure_strict_json_schema
    from litellm.experimental_mcp_client.tools import transform_mcp_tool_to_openai_tool
    from mcp.types import Tool as MCPTool
    from pydantic_ai.profiles.google import GoogleJsonSchemaTransformer
    from pydantic_ai.profiles.openai import OpenAIJsonSchemaTransformer
    import importlib.metadata as md
    import orjson

    catalogs = corpus_catalogs()
    texts = [json.dumps(c, separators=(",", ":")).encode() for c in catalogs]
    tools = [t for c in catalogs for t in c["tools"]]
    n = len(tools)
    mb = sum(len(t) for t in texts) / 1e6
    models = [MCPTool.model_validate(t) for t in tools]
    # The same models, catalog by catalog, for tooladapter (which reads a model through its
    # `model_dump(by_alias=True, exclude_none=True)`).
    model_catalogs = [{"tools": [MCPTool.model_validate(t) for t in c["tools"]]} for c in catalogs]
    converter = ta.Converter()

    def litellm_dict():
        return [transform_mcp_tool_to_openai_tool(MCPTool.model_validate(t)) for t in tools]

    def litellm_models():
        return [transform_mcp_tool_to_openai_tool(m) for m in models]

    def litellm_bytes():
        out = []
        for text in texts:
            doc = json.loads(text)
            out.append(json.dumps([transform_mcp_tool_to_openai_tool(MCPTool.model_validate(t)) for t in doc["tools"]]).encode())
        return out

    def litellm_orjson():
        out = []
        for text in texts:
            doc = orjson.loads(text)
            out.append(orjson.dumps([transform_mcp_tool_to_openai_tool(MCPTool.model_validate(t)) for t in doc["tools"]]))
        return out

    def litellm_deepcopy():
        return [copy.deepcopy(transform_mcp_tool_to_openai_tool(MCPTool.model_validate(t))) for t in tools]

    def deep(v):
        if type(v) is dict:
            return {k: deep(x) for k, x in v.items()}
        if type(v) is list:
            return [deep(x) for x in v]
        return v

    def by_hand():
        return [{"type": "function", "function": {"name": t["name"], "description": t.get("description", ""),
                 "parameters": deep(t.get("inputSchema") or {"type": "object"})}} for t in tools]

    def agents_strict(t):
        return {"type": "function", "function": {"name": t["name"], "description": t.get("description", ""),
                "parameters": ensure_strict_json_schema(copy.deepcopy(t.get("inputSchema") or {"type": "object"})),
                "strict": True}}

    failures = {}

    def agents_dict():
        out = []
        for t in tools:
            try:
                out.append(agents_strict(t))
            except Exception:  # noqa: BLE001 - counted: a tool the library refuses
                failures["openai-agents"] = failures.get("openai-agents", 0) + 1
        return out

    def pydantic_openai(t):
        schema = OpenAIJsonSchemaTransformer(copy.deepcopy(t.get("inputSchema") or {"type": "object"}), strict=True).walk()
        return {"type": "function", "function": {"name": t["name"], "description": t.get("description", ""),
                "parameters": schema, "strict": True}}

    def pydantic_gemini(t):
        schema = GoogleJsonSchemaTransformer(copy.deepcopy(t.get("inputSchema") or {"type": "object"})).walk()
        return {"name": t["name"], "description": t.get("description", ""), "parameters": schema}

    def each(fn, name):
        def run():
            out = []
            for t in tools:
                try:
                    out.append(fn(t))
                except Exception:  # noqa: BLE001 - counted
                    failures[name] = failures.get(name, 0) + 1
            return out
        return run

    def ta_dict(to, strict=None):
        return lambda: [converter.convert(c, "mcp", to, strict=strict).tools for c in catalogs]

    def ta_share():
        return [converter.convert(c, "mcp", "openai", share=True).tools for c in catalogs]

    def ta_models():
        return [converter.convert(c, "mcp", "openai").tools for c in model_catalogs]

    def ta_bytes_dict():
        return [converter.convert(t, "mcp", "openai").tools for t in texts]

    def ta_bytes(to, strict=None):
        return lambda: [converter.convert(t, "mcp", to, strict=strict).output for t in texts]

    rows = [
        ("MCP -> OpenAI", "dict", ta_dict("openai"), "hand-written deep-copy comprehension", by_hand),
        ("MCP -> OpenAI", "dict", ta_dict("openai"), "LiteLLM + copy.deepcopy", litellm_deepcopy),
        ("MCP -> OpenAI", "dict, share=True", ta_share, "LiteLLM", litellm_dict),
        ("MCP -> OpenAI", "models -> dict", ta_models, "LiteLLM (MCP Tool models in)", litellm_models),
        ("MCP -> OpenAI", "bytes", ta_bytes("openai"), "LiteLLM (json)", litellm_bytes),
        ("MCP -> OpenAI", "bytes", ta_bytes("openai"), "LiteLLM (orjson)", litellm_orjson),
        ("OpenAI strict", "dict", ta_dict("openai", True), "openai-agents ensure_strict_json_schema", agents_dict),
        ("OpenAI strict", "dict", ta_dict("openai", True), "pydantic-ai OpenAIJsonSchemaTransformer", each(pydantic_openai, "pydantic-ai openai")),
        ("MCP -> Gemini", "dict", ta_dict("gemini"), "pydantic-ai GoogleJsonSchemaTransformer", each(pydantic_gemini, "pydantic-ai gemini")),
    ]
    # Which tools each other library raises on, counted in one pass of its own.
    failures.clear()
    for other in {id(r[4]): r[4] for r in rows}.values():
        other()
    refused = dict(failures)
    packages = ["tooladapter", "litellm", "openai-agents", "pydantic-ai-slim", "mcp", "pydantic", "orjson"]
    versions = {}
    for p in packages:
        try:
            versions[p] = md.version(p)
        except md.PackageNotFoundError:
            versions[p] = "not installed"
    # Set-up is done: its objects (the corpus, the models) are not the collector's to walk
    # again in every timed pass.
    gc.collect()
    if not args.no_freeze:
        gc.freeze()
    print(f"{n} tools in {len(catalogs)} catalogs, {mb:.2f} MB compact")
    print(f"{platform.python_implementation()} {sys.version.split()[0]} on {platform.machine()}, {os.cpu_count()} CPUs; "
          + ", ".join(f"{k} {v}" for k, v in versions.items()))
    print(f"median of {args.samples} passes over the corpus per contender, interleaved, one thread; "
          f"garbage collector {'left as it is' if args.no_freeze else 'frozen after set-up'}; "
          f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    print("| conversion | in/out | tooladapter tools/s | other | other tools/s | ratio | ratio, CPU time | spread (ours; other) |")
    print("|---|---|---:|---|---:|---:|---:|---|")
    for what, io, ours, other_name, other in rows:
        (t_ours, lo, hi, c_ours), (t_other, olo, ohi, c_other) = interleaved(ours, other, args.samples)
        spread = f"{n / hi:,.0f}–{n / lo:,.0f}; {n / ohi:,.0f}–{n / olo:,.0f}"
        print(f"| {what} | {io} | {n / t_ours:,.0f} | {other_name} | {n / t_other:,.0f} | {t_other / t_ours:.1f}x "
              f"| {c_other / c_ours:.1f}x | {spread} |")
    # Where a dict-to-dict conversion's time goes: each stage the difference of two rows,
    # all interleaved in one loop.
    stages = {
        "bytes in, bytes out": lambda: [converter.convert(t, "mcp", "openai").output for t in texts],
        "dict in, bytes out": lambda: [converter.convert(c, "mcp", "openai").output for c in catalogs],
        "bytes in, dict out": ta_bytes_dict,
        "dict in, dict out": ta_dict("openai"),
    }
    for f in stages.values():
        f()
    samples = {k: [] for k in stages}
    for _ in range(args.samples):
        for k, f in stages.items():
            samples[k].append(timed(f))
    print()
    for clock, pick in (("wall", 0), ("CPU", 1)):
        per = {k: statistics.median(t[pick] for t in v) / n * 1e6 for k, v in samples.items()}
        print(f"Stages of MCP -> OpenAI, microseconds per tool ({clock} time, medians): "
              + "; ".join(f"{k} {v:.2f}" for k, v in per.items()))
        walk = per["dict in, bytes out"] - per["bytes in, bytes out"]
        build = per["bytes in, dict out"] - per["bytes in, bytes out"]
        print(f"  the input walk {walk:.2f} (GIL held), the conversion {per['bytes in, bytes out']:.2f} (GIL released), "
              f"the output build {build:.2f} (the text read without the GIL, the objects made with it)")
    # Two threads, each converting its half of the catalogs, against one thread doing all.
    halves = [catalogs[0::2], catalogs[1::2]]
    one = lambda: [ta.convert(c, "mcp", "openai").tools for c in catalogs]  # noqa: E731
    pool = concurrent.futures.ThreadPoolExecutor(2)

    def two():
        futures = [pool.submit(lambda part: [ta.convert(c, "mcp", "openai").tools for c in part], h) for h in halves]
        return [f.result() for f in futures]

    (t_one, _, _, _), (t_two, _, _, _) = interleaved(one, two, args.samples)
    pool.shutdown()
    print(f"dict -> dict on two threads: {n / t_two:,.0f} tools/s against {n / t_one:,.0f} on one: {t_one / t_two:.2f}x")
    if any(refused.values()):
        print(f"tools the other libraries raised on, of {n}: {refused}")
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
