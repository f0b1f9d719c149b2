"""The dict boundary: Python data read without the `json` module and output objects built
without it, numbers exact both ways, keys interned, and `share=True` putting the caller's own
objects into the output where the conversion left them as they were (and only then)."""

import json
import math
import pathlib
import random
import struct

import pytest

import tooladapter as ta

REPO = pathlib.Path(__file__).resolve().parents[2]
CATALOG = (REPO / "examples" / "data" / "catalog.mcp.json").read_bytes()
WRITERS = [f["name"] for f in ta.formats() if f["writes"]]


def random_floats(n, seed=7):
    rng = random.Random(seed)
    out = [0.0, -0.0, 1.0, -1.5, 0.1, 1e16, 1e15, 1234567890123456.0, 1e-4, 1e-5, 5e-324,
           1.7976931348623157e308, 2.5e-7, 123456789012345678.0, 0.3, 1 / 3]
    while len(out) < n:
        x = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if math.isfinite(x):
            out.append(x)
    out += [rng.uniform(-1e6, 1e6) for _ in range(n // 4)]
    out += [float(rng.randint(-10**17, 10**17)) for _ in range(n // 8)]
    return out


INTS = [0, -0, 1, -1, 2**63 - 1, -(2**63), 2**63, -(2**63) - 1, 2**200, -(3**90), 10**40 + 7]
STRINGS = ["", "plain", 'quote " and \\ backslash', "tab\tnew\nline\r", "\x00\x01\x1f\x7f",
           "é ü 中文", "emoji 🦀 pair", "\u2028\u2029", "/slash/"]


def tool_with(values):
    """A tool whose schema carries `values` where no rule touches them (an enum)."""
    return {"name": "t", "inputSchema": {"type": "object", "properties": {"v": {"enum": values}}}}


def enum_of(tools, to):
    params = {"openai": lambda t: t["function"]["parameters"], "anthropic": lambda t: t["input_schema"],
              "mcp": lambda t: t["inputSchema"]}[to](tools)
    return params["properties"]["v"]["enum"]


@pytest.mark.parametrize("to", ["mcp", "openai", "anthropic"])
def test_numbers_are_exact_both_ways(to):
    values = random_floats(4000) + INTS
    tool = tool_with(values)
    from_dict = ta.convert(tool, "mcp", to)
    from_text = ta.convert(json.dumps(tool).encode(), "mcp", to)
    # The dict is written as `json.dumps` writes it: the same text in, the same output out.
    assert from_dict.output == from_text.output
    back = enum_of(from_dict.tools, to)
    assert len(back) == len(values)
    for a, b in zip(values, back):
        assert type(a) is type(b) and (a == b) and math.copysign(1, a) == math.copysign(1, b), (a, b)
    assert from_dict.tools == json.loads(from_dict.output)


def test_float_text_is_pythons_repr():
    values = random_floats(3000, seed=11)
    out = ta.convert(tool_with(values), "mcp", "mcp").output
    assert json.dumps(values, separators=(",", ":")) in out.decode()


@pytest.mark.parametrize("to", ["mcp", "openai", "gemini"])
def test_strings_are_exact_both_ways(to):
    tool = {"name": "t", "description": "".join(STRINGS),
            "inputSchema": {"type": "object", "properties": {s or "k": {"type": "string", "description": s} for s in STRINGS}}}
    from_dict = ta.convert(tool, "mcp", to)
    assert from_dict.output == ta.convert(json.dumps(tool).encode(), "mcp", to).output
    assert from_dict.tools == json.loads(from_dict.output)


@pytest.mark.parametrize("to", WRITERS)
def test_built_objects_equal_json_loads_for_every_writer(to):
    for source in (CATALOG, json.loads(CATALOG)):
        conversion = ta.convert(source, "mcp", to)
        built, loaded = conversion.tools, json.loads(conversion.output)
        assert built == loaded
        assert json.dumps(built) == json.dumps(loaded)  # types and key order too


SPECIAL = ['"', "\\", "\n", "\t", "\x00", "\x1f", "\x7f", "é", "🦀", "\u2028"]


@pytest.mark.parametrize("special", SPECIAL)
def test_escapes_at_every_place_of_a_word(special):
    # The input walk tests eight bytes at a time and the output plan finds string ends by
    # search: a character to escape at each place of a word, in keys and values, read and
    # built exactly.
    values = ["a" * at + special + "b" * (19 - at) for at in range(20)]
    tool = {"name": "t", "description": values[3],
            "inputSchema": {"type": "object", "properties": {v: {"type": "string", "description": v} for v in values}}}
    for to in ("mcp", "openai", "gemini"):
        from_dict = ta.convert(tool, "mcp", to)
        assert from_dict.output == ta.convert(json.dumps(tool).encode(), "mcp", to).output
        assert from_dict.tools == json.loads(from_dict.output)
        assert json.dumps(from_dict.tools) == json.dumps(json.loads(from_dict.output))


def test_keys_are_interned_and_shared_between_tools():
    tools = ta.convert(CATALOG, "mcp", "openai").tools
    first, second = (list(t) for t in tools[:2])
    assert first[0] is second[0]  # "type"
    assert [k for k in tools[0]["function"] if k == "parameters"][0] is "parameters"  # noqa: F632 - identity is the point


def test_the_inverse_map_builds_exact_numbers():
    tool = {"name": "files.read", "inputSchema": {"type": "object", "properties": {"n": {"type": "number"}}}}
    inverse = ta.convert(tool, "mcp", "openai", strict=True).inverse
    name = ta.convert(tool, "mcp", "openai", strict=True).tools["function"]["name"]
    # The map works on serde_json values: integers within 64 bits and floats stay exact.
    for n in [2**63 - 1, -(2**63), 0.1, 1e-7, 12345.678901234567]:
        source, arguments = inverse.unmap(name, {"n": n})
        assert source == "files.read" and arguments == {"n": n} and type(arguments["n"]) is type(n)


# --- share=True -----------------------------------------------------------------------------

SCHEMA_AT = {
    "openai": lambda t: t["function"]["parameters"],
    "openai-responses": lambda t: t["parameters"],
    "anthropic": lambda t: t["input_schema"],
    "bedrock": lambda t: t["toolSpec"]["inputSchema"]["json"],
    "gemini-json": lambda t: t["parametersJsonSchema"],
    "mcp": lambda t: t["inputSchema"],
}


def listed(catalog):
    """A catalog's tools: the list itself, or the list its object holds."""
    if isinstance(catalog, dict):
        (tools,) = [v for v in catalog.values() if isinstance(v, list)]
        return tools
    return catalog


def plain_catalog():
    return [
        {"name": f"tool_{i}", "description": f"does {i}",
         "inputSchema": {"type": "object", "properties": {"q": {"type": "string", "description": "query"},
                                                          "n": {"type": "integer", "minimum": i}},
                         "required": ["q"]}}
        for i in range(5)
    ]


@pytest.mark.parametrize("to", list(SCHEMA_AT))
@pytest.mark.parametrize("shape", ["tool", "catalog", "mcp-catalog"])
def test_share_puts_the_callers_untouched_schemas_in_the_output(to, shape):
    tools = plain_catalog()
    given = {"tool": tools[0], "catalog": tools, "mcp-catalog": {"tools": tools}}[shape]
    conversion = ta.convert(given, "mcp", to, share=True)
    out = listed(conversion.tools) if shape != "tool" else [conversion.tools]
    used = tools[: len(out)]
    for src, dst in zip(used, out):
        assert SCHEMA_AT[to](dst) is src["inputSchema"], (to, shape)
    # The same data as new objects, and the same bytes.
    fresh = ta.convert(given, "mcp", to)
    assert fresh.tools == conversion.tools and fresh.output == conversion.output


@pytest.mark.parametrize("to", list(SCHEMA_AT))
def test_without_share_nothing_of_the_callers_is_in_the_output(to):
    tools = plain_catalog()
    theirs = set()

    def walk(v, into):
        if isinstance(v, (dict, list)):
            into.add(id(v))
            for x in v.values() if isinstance(v, dict) else v:
                walk(x, into)

    walk(tools, theirs)
    out = listed(ta.convert(tools, "mcp", to).tools)
    ours = set()
    walk(out, ours)
    assert not theirs & ours
    assert SCHEMA_AT[to](out[0]) == tools[0]["inputSchema"]


STRICT_WRITERS = [f["name"] for f in ta.formats() if f["writes"] and f["strict"]]


@pytest.mark.parametrize("to,strict", [(to, None) for to in WRITERS] + [(to, True) for to in STRICT_WRITERS])
def test_share_output_is_the_output_for_every_writer(to, strict):
    # Every writer, strict or not, over the example catalog as data: what share=True aliases
    # is exactly what json.loads of the output gives (values, types, key order), each shared
    # object is a plain dict or list of the caller's, and without share none is.
    given = json.loads(CATALOG)
    theirs = {}

    def walk(v, into):
        if type(v) in (dict, list):
            into[id(v)] = v
            for x in v.values() if type(v) is dict else v:
                walk(x, into)

    walk(given, theirs)
    shared = ta.convert(given, "mcp", to, strict=strict, share=True)
    assert json.dumps(shared.tools) == json.dumps(json.loads(shared.output))
    # (Python data has no text of its own: `0.10` in the file is the float 0.1.)
    fresh_conversion = ta.convert(given, "mcp", to, strict=strict)
    assert shared.output == fresh_conversion.output and shared.tools == fresh_conversion.tools
    ours = {}
    walk(shared.tools, ours)
    aliased = theirs.keys() & ours.keys()
    assert all(type(theirs[i]) in (dict, list) for i in aliased)
    if to in SCHEMA_AT and not strict:
        assert aliased, to  # a plain conversion to a JSON Schema target shares the schemas
    fresh = {}
    walk(fresh_conversion.tools, fresh)
    assert not theirs.keys() & fresh.keys()


def test_share_keeps_what_a_rule_left_and_builds_what_it_changed():
    tool = {"name": "t", "inputSchema": {"type": "object", "properties": {
        "kind": {"type": "string", "enum": ["a", "b"]},
        "n": {"type": "integer"},
    }}}
    # Gemini writes type names upper-case: every schema object changes, the enum list does not.
    out = ta.convert(tool, "mcp", "gemini", share=True).tools
    params = out["parameters"]
    assert params is not tool["inputSchema"]
    assert params["properties"]["kind"]["type"] == "STRING"
    assert params["properties"]["kind"]["enum"] is tool["inputSchema"]["properties"]["kind"]["enum"]
    assert tool["inputSchema"]["properties"]["kind"]["type"] == "string"  # the caller's untouched
    # Strict mode makes the optional `n` nullable: `n` is new, `kind` is the caller's own.
    strict = ta.convert(tool, "mcp", "openai", strict=True, share=True).tools["function"]["parameters"]
    assert strict["properties"]["n"] is not tool["inputSchema"]["properties"]["n"]
    assert strict["properties"]["n"]["type"] == ["integer", "null"]


def test_share_aliases_mutation_as_documented():
    tools = plain_catalog()
    out = ta.convert(tools, "mcp", "anthropic", share=True).tools
    out[0]["input_schema"]["properties"]["q"]["description"] = "changed"
    assert tools[0]["inputSchema"]["properties"]["q"]["description"] == "changed"


def test_share_with_text_input_or_models_builds_new_objects():
    text = json.dumps(plain_catalog()).encode()
    assert ta.convert(text, "mcp", "openai", share=True).tools == ta.convert(text, "mcp", "openai").tools

    class Model:
        def __init__(self, data):
            self.data = data

        def model_dump(self, **kwargs):
            return self.data

    tools = plain_catalog()
    out = ta.convert([Model(t) for t in tools], "mcp", "openai", share=True).tools
    # A model's dump is the model's data: shared as the dict it gave.
    assert out[0]["function"]["parameters"] is tools[0]["inputSchema"]


def test_share_never_takes_a_tuple_or_a_subclass_for_plain_data():
    import enum

    class Kind(str, enum.Enum):
        A = "a"

    class Ordered(dict):
        pass

    props = {"q": {"type": "string"}, "k": {"enum": [Kind.A]}}
    for odd in [{"required": ("q",)}, {"properties": Ordered(props)}, {"default": {"x": True}}]:
        schema = {"type": "object", "properties": props, **odd}
        tool = {"name": "t", "inputSchema": schema}
        params = ta.convert(tool, "mcp", "openai", share=True).tools["function"]["parameters"]
        assert params == json.loads(json.dumps(schema))
        assert json.dumps(params) == json.dumps(schema)
        # Only plain containers of plain data are shared: never the parent of a tuple, a
        # subclass or a str enum.
        assert params is not schema
        assert params["properties"]["q"] is props["q"]
        assert type(params["properties"]["k"]["enum"][0]) is str
    plain = {"type": "object", "properties": {"a": {"type": "string"}}, "default": {"x": True}}
    assert ta.convert({"name": "t", "inputSchema": plain}, "mcp", "openai", share=True).tools["function"]["parameters"] is plain


def test_share_picks_each_tools_own_schema_when_two_are_equal():
    same = {"type": "object", "properties": {"q": {"type": "string"}}}
    tools = [{"name": "a", "inputSchema": same}, {"name": "b", "inputSchema": dict(same)}]
    out = ta.convert(tools, "mcp", "openai", share=True).tools
    assert out[0]["function"]["parameters"] is tools[0]["inputSchema"]
    assert out[1]["function"]["parameters"] is tools[1]["inputSchema"]


def test_the_collectors_state_is_left_as_it_was():
    import gc

    assert gc.isenabled()
    ta.convert(CATALOG, "mcp", "openai").tools
    assert gc.isenabled()
    gc.disable()
    try:
        ta.convert(json.loads(CATALOG), "mcp", "openai", share=True).tools
        assert not gc.isenabled()
    finally:
        gc.enable()
    # A build that fails half-way leaves it on too.
    with pytest.raises(ta.ConversionError):
        ta.convert({"name": 5}, "mcp", "openai")
    assert gc.isenabled()


def test_strings_are_the_callers_own_and_containers_new():
    tools = plain_catalog()
    for t in tools:
        t["inputSchema"]["properties"]["q"]["description"] = "".join(["the ", "query ", t["name"]])
    out = ta.convert(tools, "mcp", "openai").tools
    for src, dst in zip(tools, out):
        assert dst["function"]["description"] is src["description"]
        q = dst["function"]["parameters"]["properties"]["q"]
        assert q["description"] is src["inputSchema"]["properties"]["q"]["description"]
        assert q is not src["inputSchema"]["properties"]["q"]
    # A string the conversion changed is new, and equal to what the output says.
    renamed = ta.convert({"name": "a.b", "inputSchema": {"type": "object"}}, "mcp", "openai").tools
    assert renamed["function"]["name"] == json.loads(ta.convert({"name": "a.b", "inputSchema": {"type": "object"}}, "mcp", "openai").output)["function"]["name"]
