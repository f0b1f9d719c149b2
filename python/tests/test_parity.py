"""The package's error model, inputs, report entries and options, as a matrix: every input
kind gives the bytes' output; each shape (a tool, a catalog) under each `errors` mode with a
good and a bad tool; `check` against the CLI's verdicts on the same input; entries as values
(equality, `to_dict`, pickling); the CLI's limits and `deny_loss` by the crate's names."""

import json
import os
import pathlib
import pickle
import re
import subprocess
import warnings

import pytest

import tooladapter as ta

REPO = pathlib.Path(__file__).resolve().parents[2]
CATALOG = (REPO / "examples" / "data" / "catalog.mcp.json").read_bytes()
WRITERS = [f["name"] for f in ta.formats() if f["writes"]]
STRICT_TARGETS = [f["name"] for f in ta.formats() if f["strict"]]

GOOD = {"name": "good", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}
# A map: strict mode would close it, so the tool cannot be strict.
OPEN = {
    "name": "open",
    "inputSchema": {
        "type": "object",
        "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}},
    },
}
# Four `$ref`s to a definition of four properties: past an expansion budget of 8 nodes.
REFS = {
    "name": "refs",
    "inputSchema": {
        "type": "object",
        "$defs": {"d": {"type": "object", "properties": {k: {"type": "string"} for k in "wxyz"}}},
        "properties": {k: {"$ref": "#/$defs/d"} for k in "abcd"},
    },
}
# Each bad tool with the options that make the target refuse it, and where its fault is.
BAD = {
    "strict-required": (OPEN, dict(to="openai", strict="require"), "/inputSchema/properties/m/additionalProperties"),
    "ref-expansion": (REFS, dict(to="gemini", max_ref_expansion=8), "/inputSchema"),
}


class Model:
    """Duck-typed like a pydantic model: the package calls `model_dump` and nothing else."""

    calls = []

    def __init__(self, data):
        self._data = data

    def model_dump(self, **kwargs):
        Model.calls.append(kwargs)
        return self._data


# Input kinds


def input_kinds(data):
    text = json.dumps(data)
    return {
        "bytes": text.encode(),
        "bytearray": bytearray(text.encode()),
        "memoryview": memoryview(text.encode()),
        "memoryview-slice": memoryview(b"  " + text.encode() + b"  ")[2:-2],
        "str": text,
        "data": data,
        "model": Model(data),
    }


@pytest.mark.parametrize("to", WRITERS)
def test_every_input_kind_gives_the_bytes_output(to):
    # The data's text (Python's numbers: `0.10` is the float 0.1), which every kind carries.
    catalog = json.loads(CATALOG)
    text = json.dumps(catalog).encode()
    expected = ta.convert(text, "mcp", to)
    for kind, tools in input_kinds(catalog).items():
        got = ta.convert(tools, "mcp", to)
        assert got.tools == expected.tools, kind
        assert [e.to_dict() for e in got.report] == [e.to_dict() for e in expected.report], kind
    # Models anywhere in the data: a list of tool models, a catalog holding them.
    models = [Model(t) for t in catalog["tools"]]
    as_list = ta.convert(models, "mcp", to)
    assert as_list.tools == ta.convert(catalog["tools"], "mcp", to).tools
    assert ta.convert({"tools": models}, "mcp", to).tools == expected.tools
    assert ta.check(Model(catalog), "mcp", to) == ta.check(text, "mcp", to)


def test_models_are_dumped_for_the_wire():
    Model.calls.clear()
    ta.convert(Model(GOOD), "mcp", "openai")
    assert Model.calls == [{"by_alias": True, "exclude_none": True}]


def test_a_bytearray_changed_after_the_call_does_not_change_the_conversion():
    data = bytearray(json.dumps(GOOD).encode())
    conversion = ta.convert(data, "mcp", "openai")
    data[:] = b"garbage"
    assert conversion.tools["function"]["name"] == "good"


@pytest.mark.parametrize("bad", [Model, Model(object()), memoryview(b"\xff"), bytearray(b"")])
def test_bad_inputs_of_the_new_kinds_raise(bad):
    with pytest.raises((TypeError, ValueError)):
        ta.convert(bad)


def test_a_model_that_dumps_itself_is_stopped_by_the_depth_limit():
    class Loop:
        def model_dump(self, **kwargs):
            return self

    with pytest.raises(ta.LimitError):
        ta.convert(Loop())


# The error model: shape x mode x good/bad tool


def convert_quietly(tools, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        conversion = ta.convert(tools, "mcp", **kwargs)
    left = [w for w in caught if issubclass(w.category, ta.LeftOutWarning)]
    return conversion, left


@pytest.mark.parametrize("errors", [None, "raise", "report", "skip"])
@pytest.mark.parametrize("shape", ["single", "catalog"])
@pytest.mark.parametrize("bad", sorted(BAD))
def test_error_modes_on_a_good_tool(bad, shape, errors):
    _, options, _ = BAD[bad]
    tools = GOOD if shape == "single" else [GOOD]
    conversion, left = convert_quietly(tools, errors=errors, **options)
    assert conversion.tools_written == 1 and left == []
    assert [e for e in conversion.report if e.severity == "error"] == []
    assert conversion.is_catalog == (shape == "catalog")


@pytest.mark.parametrize("errors", [None, "raise", "report", "skip"])
@pytest.mark.parametrize("shape", ["single", "catalog", "catalog-all-bad"])
@pytest.mark.parametrize("bad", sorted(BAD))
def test_error_modes_on_a_bad_tool(bad, shape, errors):
    tool, options, fault = BAD[bad]
    tools = {"single": tool, "catalog": {"tools": [GOOD, tool]}, "catalog-all-bad": [tool]}[shape]
    place = {"single": "", "catalog": "/tools/1", "catalog-all-bad": "/0"}[shape]
    index = {"single": 0, "catalog": 1, "catalog-all-bad": 0}[shape]
    nothing_written = shape != "catalog"
    raises = errors == "raise" or (
        errors is None and (nothing_written or options.get("strict") == "require")
    )
    if raises:
        with pytest.raises(ta.ConversionError) as err:
            convert_quietly(tools, errors=errors, **options)
        e = err.value
        assert e.tool == tool["name"], str(e)
        assert e.pointer == place + fault, str(e)
        if e.report is not None:
            # Raised by the error model after the conversion: the entries come along.
            (entry,) = [x for x in e.report if x.severity == "error"]
            assert (entry.pointer, entry.index) == (place + fault, index)
        return
    conversion, left = convert_quietly(tools, errors=errors, **options)
    (entry,) = [e for e in conversion.report if e.severity == "error"]
    assert (entry.tool, entry.pointer, entry.tool_pointer) == (tool["name"], place + fault, fault)
    assert entry.index == index
    assert len(left) == (1 if errors == "report" else 0)
    if left:
        assert str(left[0].message).startswith(f"1 of {1 if nothing_written else 2} tools left out")
    assert conversion.tools_written == (0 if nothing_written else 1)
    assert conversion.strict_applied == ([] if nothing_written else [options.get("strict") == "require"])
    if shape == "single":
        # Nothing written: no output, and the entries a catalog of that one tool records.
        assert (conversion.output, conversion.tools, conversion.is_catalog) == (b"", None, False)
        alone, _ = convert_quietly([tool], errors=errors, **options)
        (theirs,) = [e for e in alone.report if e.severity == "error"]
        assert (theirs.code, theirs.message, theirs.tool_pointer) == (entry.code, entry.message, entry.tool_pointer)
    elif shape == "catalog":
        assert b'"good"' in conversion.output and tool["name"].encode() not in conversion.output


def test_a_tool_that_cannot_be_read_raises_in_every_mode():
    for errors in [None, "raise", "report", "skip"]:
        with pytest.raises(ta.ConversionError) as err:
            ta.convert({"name": 5}, "mcp", "openai", errors=errors)
        assert (err.value.kind, err.value.pointer) == ("wrong-type", "/name")
    # In a catalog with a good tool, it is left out as any other bad tool.
    conversion = ta.convert([{"name": 5}, GOOD], "mcp", "openai", errors="skip")
    assert conversion.tools_written == 1
    assert [(e.code, e.index) for e in conversion.report] == [("tool-not-converted", 0)]


def test_strict_require_raises_on_a_catalog_and_report_keeps_the_others():
    with pytest.raises(ta.ConversionError) as err:
        ta.convert({"tools": [GOOD, OPEN]}, "mcp", "openai", strict="require")
    assert err.value.tool == "open" and "strict" in str(err.value)
    assert [e.code for e in err.value.report if e.severity == "error"] == ["strict-impossible"]
    conversion = ta.convert({"tools": [GOOD, OPEN]}, "mcp", "openai", strict="require", errors="skip")
    assert conversion.strict_applied == [True]
    assert [e.code for e in conversion.report if e.severity == "error"] == ["strict-impossible"]


@pytest.mark.parametrize("to", STRICT_TARGETS)
def test_a_strict_fallback_is_a_warning_and_strict_applied_says_which(to):
    conversion = ta.convert({"tools": [GOOD, OPEN]}, "mcp", to, strict=True)
    (fallback,) = [e for e in conversion.report if e.code == "strict-fallback"]
    assert (fallback.severity, fallback.effect, fallback.tool, fallback.index) == ("warning", "none", "open", 1)
    assert fallback in conversion.warnings
    assert conversion.strict_applied == [True, False]
    assert ta.convert({"tools": [GOOD, OPEN]}, "mcp", to, strict=False).strict_applied == [False, False]


@pytest.mark.parametrize("to", WRITERS)
def test_strict_applied_matches_the_output(to):
    options = {"strict": True} if to in STRICT_TARGETS else {}
    conversion = ta.convert(CATALOG, "mcp", to, **options)
    assert len(conversion.strict_applied) == conversion.tools_written
    written = json.dumps(conversion.tools)
    assert written.count('"strict": true') == sum(conversion.strict_applied)


def test_unknown_errors_mode_is_an_option_error():
    with pytest.raises(ta.ConversionError) as err:
        ta.convert(GOOD, errors="ignore")
    assert err.value.kind == "invalid-options" and "raise, report, skip" in str(err.value)


# Report entries


def test_entries_carry_the_tool_pointer_and_the_index():
    conversion = ta.convert(CATALOG, "mcp", "openai", strict=True)
    assert conversion.report
    for e in conversion.report:
        assert e.index is not None
        assert e.pointer == f"/tools/{e.index}{e.tool_pointer}", e
    single = ta.convert(json.loads(CATALOG)["tools"][0], "mcp", "openai")
    assert all(e.index == 0 and e.pointer == e.tool_pointer for e in single.report)


def test_entries_are_values_dicts_and_pickle():
    entries = ta.convert(CATALOG, "mcp", "gemini").report + ta.convert(CATALOG, "mcp", "openai", strict=True).report
    assert entries
    for e in entries:
        d = e.to_dict()
        assert set(d) == set(ta.ReportEntryDict.__annotations__)
        again = ta.ReportEntry(**d)
        assert again == e and hash(again) == hash(e) and again is not e
        assert pickle.loads(pickle.dumps(e)) == e
        assert json.loads(json.dumps(d)) == d
    assert entries[0] != entries[1]
    assert len(set(entries)) == len({json.dumps(e.to_dict(), sort_keys=True) for e in entries})
    with pytest.raises(ValueError):
        ta.ReportEntry(**dict(entries[0].to_dict(), severity="fatal"))
    with pytest.raises(ValueError):
        ta.ReportEntry(**dict(entries[0].to_dict(), effect="sometimes"))


def test_version_and_formats_are_typed_data():
    cargo = (REPO / "python" / "Cargo.toml").read_text()
    assert ta.__version__ == re.search(r'^version = "([^"]+)"', cargo, re.M).group(1)
    for f in ta.formats():
        assert set(f) == set(ta.FormatInfo.__annotations__)


# The CLI's limits and options


def test_max_depth_limits_text_and_data_alike():
    nested = {"type": "string"}
    for _ in range(10):
        nested = {"type": "array", "items": nested}
    tool = {"name": "deep", "inputSchema": {"type": "object", "properties": {"a": nested}}}
    assert ta.convert(tool).tools_written == 1
    for tools in (tool, json.dumps(tool).encode()):
        with pytest.raises(ta.LimitError) as err:
            ta.convert(tools, max_depth=8)
        assert err.value.kind == "depth-limit"


def test_max_ref_expansion_and_unroll_recursion():
    with pytest.raises(ta.LimitError) as err:
        ta.convert(REFS, "mcp", "gemini", max_ref_expansion=8)
    assert err.value.kind == "ref-expansion"
    assert ta.convert(REFS, "mcp", "gemini").tools_written == 1
    tree = {"name": "tree", "inputSchema": {"type": "object", "$defs": {"n": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/n"}}}}}, "properties": {"root": {"$ref": "#/$defs/n"}}}}
    cut = json.dumps(ta.convert(tree, "mcp", "gemini").tools)
    unrolled = json.dumps(ta.convert(tree, "mcp", "gemini", unroll_recursion=2).tools)
    assert unrolled.count('"kids"') > cut.count('"kids"')


def test_operations_select_openapi_operations():
    doc = {"openapi": "3.1.0", "info": {"title": "Pets", "version": "1"}, "paths": {
        "/pets/{id}": {"get": {"operationId": "getPet", "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}]}},
        "/pets": {"post": {"operationId": "addPet"}, "get": {"operationId": "listPets"}}}}
    names = lambda c: [t["function"]["name"] for t in c.tools]
    assert names(ta.convert(doc, "openapi", "openai")) == ["getPet", "addPet", "listPets"]
    assert names(ta.convert(doc, "openapi", "openai", operations=["get*"])) == ["getPet"]
    assert names(ta.Converter().convert(doc, "openapi", "openai", operations=["*Pets", "add?et"])) == ["addPet", "listPets"]
    assert ta.check(doc, "openapi", "openai", operations=["get*"]) == []
    with pytest.raises(ta.ConversionError) as err:
        ta.convert(GOOD, "mcp", "openai", operations=["get*"])
    assert err.value.kind == "invalid-options"


def deny_levels():
    """The crate's own names for `deny_loss`, from its error for a name it does not know:
    the levels of whichever crate the package was built with."""
    with pytest.raises(ta.ConversionError) as err:
        ta.convert(GOOD, deny_loss="no-such-level")
    assert err.value.kind == "invalid-options"
    return re.search(r"expected one of: (.*)$", str(err.value)).group(1).split(", ")


def test_deny_loss_levels_are_the_crates():
    levels = deny_levels()
    assert {"any", "widens", "narrows"} <= set(levels)
    # A widening (a dropped `pattern`) is denied by `any` and `widens`, not by `narrows`.
    tool = {"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"type": "string", "pattern": "^x"}}}}
    widened = ta.convert(tool, policy={"pattern": "drop"})
    assert [(e.effect, e.severity) for e in widened.report] == [("widens", "warning")]
    for level in levels:
        assert ta.convert(GOOD, deny_loss=level.upper()).tools_written == 1, level
    for level, denied in [("any", True), ("widens", True), ("narrows", False)]:
        if denied:
            with pytest.raises(ta.ConversionError) as err:
                ta.convert(tool, policy={"pattern": "drop"}, deny_loss=level)
            assert err.value.kind == "loss-denied"
            assert [e.code for e in err.value.report] == ["keyword-dropped"]
        else:
            assert ta.convert(tool, policy={"pattern": "drop"}, deny_loss=level).tools_written == 1


# check: convert's argument order, and the CLI's verdicts


def test_check_takes_converts_order_and_the_old_one_positional_form():
    bad = {"name": "x", "parameters": {"type": "object", "properties": {"a": {"type": "array"}}}}
    assert ta.check([bad], "gemini") == ta.check([bad], to="gemini") == ta.check([bad], from_="gemini")
    # Two positional formats are convert's order: from, then to (a dated limit: a finding).
    long = dict(GOOD, description="d" * 1100)
    assert ta.check(long, "mcp", "openai") == ta.check(long, from_="mcp", to="openai") != []
    with pytest.raises(ta.ConversionError):
        ta.check(long, "openai", "mcp")
    with pytest.raises(TypeError):
        ta.check(long)


def test_check_returns_only_what_the_provider_rejects():
    # The conversion's own entries (a dropped title, a described keyword) are not findings.
    assert ta.convert(CATALOG, "mcp", "gemini").report
    assert ta.check(CATALOG, "mcp", "gemini") == []
    assert ta.check(CATALOG, "mcp", "openai", strict=True) == []


@pytest.fixture(scope="module")
def cli():
    """The CLI of this checkout (a no-op build when `cargo test` built it already)."""
    subprocess.run(["cargo", "build", "--quiet", "--bin", "tooladapter"], cwd=REPO, check=True)
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    return str(target / "debug" / "tooladapter")


LONG = dict(GOOD, description="d" * 1100)
CHECKS = [
    # (input, from, to, strict)
    (CATALOG, "mcp", "openai", None),
    (CATALOG, "mcp", "gemini", None),
    (CATALOG, "mcp", "anthropic", "on"),
    (json.dumps([{"name": "x", "parameters": {"type": "object", "properties": {"a": {"type": "array"}}}}]), "gemini", "gemini", None),
    (json.dumps([{"type": "function", "name": "ping", "parameters": {"type": "object", "properties": {}}, "strict": False}]), "openai-responses", "openai-responses", None),
    (json.dumps({"tools": [GOOD, OPEN, LONG]}), "mcp", "openai", None),
    (json.dumps([{"type": "function", "function": {"name": "a b", "parameters": {"type": "object", "properties": {}}}}]), "openai", "openai", None),
    (json.dumps({"tools": [GOOD, {"name": 5}]}), "mcp", "bedrock", None),
]


@pytest.mark.parametrize("case", range(len(CHECKS)))
def test_check_agrees_with_the_cli(cli, case):
    text, from_, to, strict = CHECKS[case]
    args = [cli, "check", "--to", to, "--from", from_, "--report", "json"]
    if strict:
        args.append(f"--strict={strict}")
    run = subprocess.run(args, input=text.encode() if isinstance(text, str) else text, capture_output=True)
    cli_found = [json.loads(line) for line in run.stdout.decode().splitlines() if line.strip()]
    found = ta.check(text, from_, to, strict=strict)
    as_cli = lambda e: (e["severity"], e["code"], e["pointer"], e.get("index"))
    assert sorted((e.severity, e.code, e.pointer, e.index) for e in found) == sorted(map(as_cli, cli_found)), run.stderr
    rejected = any(e.severity == "error" for e in found)
    assert run.returncode == (1 if rejected else 0), run.stderr
