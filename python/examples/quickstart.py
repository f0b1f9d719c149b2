"""Converts the repository's example MCP catalog to OpenAI and Gemini tools and prints the
report: what python/README.md's quick start runs."""

import pathlib

import tooladapter

catalog = pathlib.Path(__file__).resolve().parents[2] / "examples" / "data" / "catalog.mcp.json"
mcp = catalog.read_bytes()

openai = tooladapter.convert(mcp, from_="mcp", to="openai")
print(openai.output.decode())
for entry in openai.report:
    print(entry)

gemini = tooladapter.convert(mcp, from_="mcp", to="gemini")
print(f"gemini: {gemini.tools_written} tools, {len(gemini.warnings)} warnings")
for entry in gemini.warnings:
    print(f"  {entry.severity}[{entry.effect}] {entry.tool} {entry.pointer}: {entry.message}")
