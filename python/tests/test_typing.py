"""The stubs under `mypy --strict`: the package and a typed user's code pass, and a mode or a
level the package does not know is caught before the code runs."""

import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent


def mypy(*paths):
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *map(str, paths)],
        cwd=HERE.parent,
        capture_output=True,
        text=True,
    )
    return run.returncode, run.stdout


def test_the_stubs_and_typed_use_are_clean():
    code, out = mypy("tooladapter", HERE / "typed_usage.py")
    assert code == 0, out


def test_an_unknown_mode_is_a_type_error(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import tooladapter as ta\n"
        "ta.convert(b'{}', errors='ignore')\n"
        "ta.convert(b'{}', strict='sometimes')\n"
        "x: int = ta.formats()[0]['name']\n"
    )
    code, out = mypy(bad)
    assert code == 1, out
    assert out.count("error:") == 3, out
