"""What the tests share: where the tlv source (its samples) and the tlv
command are (tests/e2e/test_python.sh sets TLV_SOURCE_DIR and TLV_CMD; the
package under test is whichever `import tlv` finds), and the ASP sample."""
import os
import subprocess

import pytest

SRC = os.environ.get("TLV_SOURCE_DIR",
                     os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TLV = os.environ.get("TLV_CMD", "tlv")
RES = os.path.join(SRC, "samples/asp/sample.res")
LOG = os.path.join(SRC, "samples/asp/sample.log")
XZ = os.path.join(SRC, "samples/linux/strace/xz.log")  # strace -ttt: wall-clock times


def run_tlv(*args, check=True):
    return subprocess.run([TLV, *args], capture_output=True, text=True, check=check)


@pytest.fixture(scope="module")
def trace():
    import tlv
    with tlv.open(LOG, RES) as t:
        yield t


def one_task_rules(folder, name, time_scale):
    """NAME.resh and NAME.res in `folder`: one Task A with a state (IDLE by
    default), read as standard form in `time_scale`."""
    (folder / f"{name}.resh").write_text(
        f'{{"{name}":{{"Task":{{"Attributes":{{"state":{{"VariableType":"String",'
        '"AllocationType":"Dynamic","Default":"IDLE"}}}}}')
    (folder / f"{name}.res").write_text(
        f'{{"TimeScale":"{time_scale}","ConvertRules":[""],'
        f'"ResourceHeaders":["{name}"],"Resources":{{"A":{{"Type":"Task"}}}}}}')


@pytest.fixture
def fractions_trace(tmp_path):
    """A standard-form trace in ms with times finer than the unit."""
    import tlv
    one_task_rules(tmp_path, "f", "ms")
    (tmp_path / "f.log").write_text(
        "[1.0000005]A.state=RUN\n[2.25]A.state=WAIT\n[3]A.state=RUN\n")
    with tlv.open(tmp_path / "f.log", rule_dirs=[tmp_path]) as t:
        yield t
