"""One run, one machine: tooladapter against what a Python user would otherwise call.

Reads the corpus's MCP catalogs (``$TOOLADAPTER_CORPUS/mcp-catalogs``, default
``../shared/corpus`` beside the repository), makes compact copies in memory, and converts every
tool with each library, timing the best of ``--repeat`` passes over the whole corpus:

- MCP -> OpenAI: LiteLLM's ``transform_mcp_tool_to_openai_tool`` (its input is the MCP SDK's
  ``Tool`` model, so dict in pays ``Tool.model_validate``; a caller already holding models is
  shown too).
- OpenAI strict: the OpenAI Agents SDK's ``ensure_strict_json_schema``; pydantic-ai's
  ``OpenAIJsonSchemaTransformer(strict=True)``.
- Gemini: pydantic-ai's ``GoogleJsonSchemaTransformer``.

"dict" rows take and give Python data (``json.loads`` output in, dicts out); "bytes" rows take
the catalog's JSON text and give JSON text (the others wrapped in ``json.loads``/``json.dumps``).

Install the competitors only for this (pinned in bench/requirements.txt):
``pip install -r python/bench/requirements.txt``.
"""

import argparse
import copy
import json
import os
import pathlib
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


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

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

    def ta_bytes(to, strict=None):
        return lambda: [converter.convert(t, "mcp", to, strict=strict).output for t in texts]

    rows = [
        ("MCP -> OpenAI", "dict", ta_dict("openai"), "LiteLLM", litellm_dict),
        ("MCP -> OpenAI", "models", ta_dict("openai"), "LiteLLM (MCP Tool models in)", litellm_models),
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
    versions = {p: md.version(p) for p in ["tooladapter", "litellm", "openai-agents", "pydantic-ai-slim", "mcp"]}
    print(f"{n} tools in {len(catalogs)} catalogs, {mb:.2f} MB compact; Python {sys.version.split()[0]}; "
          + ", ".join(f"{k} {v}" for k, v in versions.items()))
    print(f"best of {args.repeat} passes over the corpus, one thread")
    print()
    print("| conversion | in/out | tooladapter tools/s | other | other tools/s | ratio |")
    print("|---|---|---:|---|---:|---:|")
    for what, io, ours, other_name, other in rows:
        t_ours, t_other = best(ours, args.repeat), best(other, args.repeat)
        print(f"| {what} | {io} | {n / t_ours:,.0f} | {other_name} | {n / t_other:,.0f} | {t_other / t_ours:.1f}x |")
    # What building Python objects costs: the same conversion, bytes out vs dicts out.
    t_bytes = best(lambda: [converter.convert(c, "mcp", "openai").output for c in catalogs], args.repeat)
    t_dicts = best(ta_dict("openai"), args.repeat)
    print()
    print(f"dict in -> bytes out {n / t_bytes:,.0f} tools/s; dict in -> dict out {n / t_dicts:,.0f} tools/s: "
          f"building the output objects costs {100 * (t_dicts - t_bytes) / t_dicts:.0f}% of the dict-to-dict time")
    if any(refused.values()):
        print(f"tools the other libraries raised on, of {n}: {refused}")


if __name__ == "__main__":
    main()
