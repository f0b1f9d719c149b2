"""The Python package as its users call it: the README's examples, every format pair on the
example data, errors and their fields, the inverse map, threads, and bad input."""

import json
import pathlib
import threading

import pytest

import tooladapter as ta

REPO = pathlib.Path(__file__).resolve().parents[2]
CATALOG = (REPO / "examples" / "data" / "catalog.mcp.json").read_bytes()
WRITERS = [f["name"] for f in ta.formats() if f["writes"]]
TOOL = {
    "name": "search",
    "title": "Search",
    "inputSchema": {
        "type": "object",
        "properties": {"q": {"type": "string"}, "limit": {"type": "integer"}},
        "required": ["q"],
    },
}


def test_readme_quick_start():
    conversion = ta.convert(TOOL, from_="mcp", to="openai")
    tool = conversion.tools
    assert tool["type"] == "function"
    assert tool["function"]["name"] == "search"
    assert json.loads(conversion.output) == tool
    (entry,) = conversion.report
    assert (entry.severity, entry.code, entry.pointer) == ("info", "metadata-dropped", "/title")
    assert (entry.tool, entry.feature, entry.effect) == ("search", "title", "none")
    assert conversion.warnings == []


def test_bytes_str_and_data_give_the_same_output():
    as_bytes = ta.convert(CATALOG, "mcp", "anthropic")
    assert ta.convert(CATALOG.decode(), "mcp", "anthropic").output == as_bytes.output
    # Data has been through Python's numbers (`0.10` is the float 0.1): the same values.
    as_data = ta.convert(json.loads(CATALOG), "mcp", "anthropic")
    assert as_data.tools == as_bytes.tools
    assert [str(e) for e in as_data.report] == [str(e) for e in as_bytes.report]


@pytest.mark.parametrize("to", WRITERS)
def test_every_format_pair_on_the_example_data(to):
    first = ta.convert(CATALOG, "mcp", to)
    assert first.tools_written == 4 and first.is_catalog
    for again in WRITERS:
        second = ta.convert(first.output, to, again)
        assert isinstance(second.tools, (list, dict)), (to, again)
        for entry in second.report:
            assert entry.severity in ("info", "warning", "error")


def test_formats_are_case_insensitive_and_listed():
    names = [f["name"] for f in ta.formats()]
    assert names[:3] == ["mcp", "openai", "openai-responses"]
    assert ta.convert(TOOL, "MCP", "OpenAI").output == ta.convert(TOOL, "mcp", "openai").output


def test_a_reusable_converter_gives_the_module_functions_output():
    converter = ta.Converter()
    for to in WRITERS:
        assert converter.convert(CATALOG, "mcp", to).output == ta.convert(CATALOG, "mcp", to).output


def test_strict_policy_and_profile():
    strict = ta.convert(TOOL, to="openai", strict=True).tools
    assert strict["function"]["strict"] is True
    assert strict["function"]["parameters"]["properties"]["limit"]["type"] == ["integer", "null"]
    assert ta.convert(TOOL, to="openai", strict="require").tools["function"]["strict"] is True
    assert "strict" not in ta.convert(TOOL, to="openai", strict=None).tools["function"]
    tool = {"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"type": "string", "pattern": "^x"}}}}
    dropped = ta.convert(tool, to="openai", policy={"pattern": "drop"})
    assert "pattern" not in dropped.tools["function"]["parameters"]["properties"]["a"]
    assert [e.code for e in dropped.warnings] == ["keyword-dropped"]
    const = {"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"const": "x"}}}}
    rewritten = ta.convert(const, to="gemini")
    assert {e.severity for e in rewritten.report} == {"info"}
    assert "combinator-rewritten" in [e.code for e in rewritten.report]
    dropped = ta.convert(const, to="gemini", profile="toolfoundation")
    assert [(e.code, e.severity) for e in dropped.report] == [("shape-rewritten", "info"), ("keyword-dropped", "warning")]
    with pytest.raises(ta.ConversionError) as err:
        ta.convert(TOOL, to="gemini", strict=True)
    assert err.value.kind == "invalid-options"
    with pytest.raises(ta.ConversionError) as err:
        ta.convert(TOOL, strict="sometimes")
    assert "expected one of: source, on, require, off" in str(err.value)
    with pytest.raises(ta.ConversionError):
        ta.convert(tool, policy={"not-a-keyword": "drop"})


def test_errors_carry_their_fields():
    with pytest.raises(ta.ParseError) as err:
        ta.convert(b'{"name": "a",}', "mcp", "openai")
    e = err.value
    assert isinstance(e, ta.ConversionError) and isinstance(e, ValueError)
    assert (e.kind, e.adapter, e.direction) == ("json", "mcp", "to_canonical")
    assert "line 1, column 14" in str(e)
    with pytest.raises(ta.ConversionError) as err:
        ta.convert({"name": 5, "inputSchema": {}}, "mcp", "openai")
    assert (err.value.kind, err.value.pointer) == ("wrong-type", "/name")
    with pytest.raises(ta.ConversionError) as err:
        ta.convert(TOOL, "mcp", "gpt")
    assert err.value.kind == "unknown-format" and "openai" in str(err.value)
    with pytest.raises(ta.ConversionError) as err:
        ta.convert(TOOL, "mcp", "openapi")
    assert err.value.kind == "unsupported"


def test_the_inverse_map_restores_names_and_drops_strict_nulls():
    tool = {"name": "files.read", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}, "n": {"type": "integer"}}, "required": ["path"]}}
    conversion = ta.convert(tool, "mcp", "openai", strict=True)
    name = conversion.tools["function"]["name"]
    assert name != "files.read"
    inverse = conversion.inverse
    assert not inverse.is_empty()
    source, arguments = inverse.unmap(name, {"path": "/etc/hosts", "n": None})
    assert (source, arguments) == ("files.read", {"path": "/etc/hosts"})
    assert inverse.unmap(name, '{"path": "a", "n": 2}') == ("files.read", {"path": "a", "n": 2})
    assert json.loads(inverse.to_json())


def test_check_lists_what_the_provider_rejects():
    bad = {"name": "x", "parameters": {"type": "object", "properties": {"a": {"type": "array"}}}}
    entries = ta.check([bad], to="gemini")
    assert entries and all(e.severity == "error" for e in entries)
    assert any(e.pointer.endswith("/properties/a") for e in entries)
    assert ta.check(CATALOG, to="mcp") == []


def test_threads_convert_in_parallel_with_the_same_output():
    expected = {to: ta.convert(CATALOG, "mcp", to).output for to in WRITERS}
    failures = []

    def work():
        try:
            for _ in range(50):
                for to in WRITERS:
                    if ta.convert(CATALOG, "mcp", to).output != expected[to]:
                        failures.append(to)
        except Exception as e:  # noqa: BLE001 - reported below
            failures.append(repr(e))

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


@pytest.mark.parametrize("bad", [None, 5, 1.5, object(), {1: "a"}, [float("nan")], [b"bytes in a list"]])
def test_wrong_python_types_raise_type_or_value_errors(bad):
    with pytest.raises((TypeError, ValueError)):
        ta.convert(bad)


def test_invalid_json_and_huge_strings_raise():
    for text in [b"", b"   ", b"tools: []", b"\xff\xfe", '{"name": "\ud800"}'.encode("utf-8", "surrogatepass")]:
        with pytest.raises(ta.ParseError):
            ta.convert(text)
    with pytest.raises(ta.ParseError):
        ta.convert("x" * 100_000_000)
    # A 100 MB description is data, not an error: converted whole.
    big = {"name": "big", "description": "d" * 100_000_000, "inputSchema": {"type": "object"}}
    assert len(ta.convert(big, "mcp", "anthropic").output) > 100_000_000


def test_deep_nesting_raises_a_limit_error():
    schema = {"type": "string"}
    for _ in range(200):
        schema = {"type": "array", "items": schema}
    with pytest.raises(ta.LimitError) as err:
        ta.convert({"name": "deep", "inputSchema": {"type": "object", "properties": {"a": schema}}})
    assert err.value.kind == "depth-limit"
    deeper = []
    for _ in range(100_000):
        deeper = [deeper]
    with pytest.raises(ta.LimitError):
        ta.convert(deeper)
    # JSON text nested as deep: refused (over 1 MiB by a depth scan before parsing, a
    # LimitError; under it, by whichever fault lowering meets first), never a crash.
    with pytest.raises(ta.LimitError):
        ta.convert(b"[" * 1_000_000 + b"]" * 1_000_000)
    with pytest.raises(ta.ConversionError):
        ta.convert(b"[" * 100_000 + b"]" * 100_000)


def test_the_readmes_one_line_replacements():
    schema = {"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer"}}, "required": ["q"]}
    strict = ta.convert({"name": "f", "parameters": schema}, "openai", "openai", strict=True).tools["function"]["parameters"]
    assert strict["additionalProperties"] is False and strict["required"] == ["q", "n"]
    assert strict["properties"]["n"]["type"] == ["integer", "null"]
    gemini = ta.convert({"name": "f", "inputSchema": schema}, "mcp", "gemini").tools["parameters"]
    assert gemini["type"] == "OBJECT" and gemini["properties"]["q"]["type"] == "STRING"


def test_dated_limits_cut_a_long_description_only_when_asked():
    long = dict(TOOL, description="d" * 1100)
    plain = ta.convert(long, to="openai")
    assert plain.tools["function"]["description"] == "d" * 1100
    assert "dated-limit" not in [e.code for e in plain.report]
    cut = ta.convert(long, to="openai", dated_limits=True)
    assert cut.tools["function"]["description"] == "d" * 1024
    assert [e.code for e in cut.warnings] == ["dated-limit"]
    assert "dated-limit" in [e.code for e in ta.check(plain.output, "openai")]
