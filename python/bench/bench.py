"""One run, one machine: tooladapter against what a Python user would otherwise call.

Reads the corpus's MCP catalogs (``$TOOLADAPTER_CORPUS/mcp-catalogs``, default
``../shared/corpus`` beside the repository), makes compact copies in memory, and converts every
tool with each library. Each row times passes over the whole corpus: after set-up the garbage
collector is frozen (``gc.freeze()``: the set-up's objects are not traversed again; ``--no-freeze``
leaves it as it is), one warm-up pass each, then ``--samples`` passes (at least 11) with the
two contenders interleaved (ours, theirs, ours, …, so a slow spell of the machine falls on
both), and the median of each is reported with the spread (the lowest and highest sample):

- MCP -> OpenAI: LiteLLM's ``transform_mcp_tool_to_openai_tool`` (its input is the MCP SDK's
  ``Tool`` model, so dict in pays ``Tool.model_validate``; a caller already holding models is
  shown too).
- OpenAI strict: the OpenAI Agents SDK's ``ensure_strict_json_schema``; pydantic-ai's
  ``OpenAIJsonSchemaTransformer(strict=True)``.
- Gemini: pydantic-ai's ``GoogleJsonSchemaTransformer``.

"dict" rows take and give Python data (``json.loads`` output in, dicts out); the "models" row
takes the MCP SDK's ``Tool`` models (tooladapter reads each through its ``model_dump``) and
gives dicts; "bytes" rows take the catalog's JSON text and give JSON text (the others wrapped
in ``json.loads``/``json.dumps``). The versions of Python and of every package, and the load
average before and after, are printed with the table.

Install the competitors only for this (pinned in bench/requirements.txt):
``pip install -r python/bench/requirements.txt``.
"""

import argparse
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
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def interleaved(ours, other, samples):
    """Median seconds of ``samples`` passes of each, the two alternating after one warm-up
    pass each; with each median, the lowest and highest sample."""
    ours(), other()
    mine, theirs = [], []
    for _ in range(samples):
        mine.append(timed(ours))
        theirs.append(timed(other))
    return [(statistics.median(t), min(t), max(t)) for t in (mine, theirs)]


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

    def ta_models():
        return [converter.convert(c, "mcp", "openai").tools for c in model_catalogs]

    def ta_bytes(to, strict=None):
        return lambda: [converter.convert(t, "mcp", to, strict=strict).output for t in texts]

    rows = [
        ("MCP -> OpenAI", "dict", ta_dict("openai"), "LiteLLM", litellm_dict),
        ("MCP -> OpenAI", "models -> dict", ta_models, "LiteLLM (MCP Tool models in)", litellm_models),
        ("MCP -> OpenAI", "bytes", ta_bytes("openai"), "LiteLLM", litellm_bytes),
        ("OpenAI strict", "dict", ta_dict("openai", True), "openai-agents ensure_strict_json_schema", agents_dict),
        ("OpenAI strict", "dict", ta_dict("openai", True), "pydantic-ai OpenAIJsonSchemaTransformer", each(pydantic_openai, "pydantic-ai openai")),
        ("MCP -> Gemini", "dict", ta_dict("gemini"), "pydantic-ai GoogleJsonSchemaTransformer", each(pydantic_gemini, "pydantic-ai gemini")),
    ]
    # Which tools each other library raises on, counted in one pass of its own.
    failures.clear()
    for other in {id(r[4]): r[4] for r in rows}.values():
        other()
    refused = dict(failures)
    packages = ["tooladapter", "litellm", "openai-agents", "pydantic-ai-slim", "mcp", "pydantic"]
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
    print("| conversion | in/out | tooladapter tools/s | other | other tools/s | ratio | spread (ours; other) |")
    print("|---|---|---:|---|---:|---:|---|")
    for what, io, ours, other_name, other in rows:
        (t_ours, lo, hi), (t_other, olo, ohi) = interleaved(ours, other, args.samples)
        spread = f"{n / hi:,.0f}–{n / lo:,.0f}; {n / ohi:,.0f}–{n / olo:,.0f}"
        print(f"| {what} | {io} | {n / t_ours:,.0f} | {other_name} | {n / t_other:,.0f} | {t_other / t_ours:.1f}x | {spread} |")
    # What building Python objects costs: the same conversion, bytes out vs dicts out.
    (t_bytes, _, _), (t_dicts, _, _) = interleaved(
        lambda: [converter.convert(c, "mcp", "openai").output for c in catalogs], ta_dict("openai"), args.samples
    )
    print()
    print(f"dict in -> bytes out {n / t_bytes:,.0f} tools/s; dict in -> dict out {n / t_dicts:,.0f} tools/s: "
          f"building the output objects costs {100 * (t_dicts - t_bytes) / t_dicts:.0f}% of the dict-to-dict time")
    if any(refused.values()):
        print(f"tools the other libraries raised on, of {n}: {refused}")
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
