"""tlv_build — a minimal PEP 517 build backend for the tlv package: a wheel
is the tlv/ directory plus its .dist-info, pure Python, built with the
standard library only (the machines tlv targets may reach no package index).
The version is read from tlv/__init__.py."""
import base64
import hashlib
import os
import re
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "tlv"


def _version():
    with open(os.path.join(ROOT, NAME, "__init__.py"), encoding="utf-8") as f:
        return re.search(r'^__version__ = "([^"]+)"', f.read(), re.M).group(1)


def _metadata():
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {_version()}\n"
            "Summary: Trace-log converter and visualizer: ctypes bindings over libtlv\n"
            "Requires-Python: >=3.8\n")


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}\n"


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = f"{NAME}-{_version()}.dist-info"
    os.makedirs(os.path.join(metadata_directory, info), exist_ok=True)
    with open(os.path.join(metadata_directory, info, "METADATA"), "w", encoding="utf-8") as f:
        f.write(_metadata())
    return info


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    version = _version()
    info = f"{NAME}-{version}.dist-info"
    wheel_name = f"{NAME}-{version}-py3-none-any.whl"
    files = []
    for dirpath, _dirs, names in os.walk(os.path.join(ROOT, NAME)):
        for n in sorted(names):
            if n.endswith(".py"):
                full = os.path.join(dirpath, n)
                files.append((os.path.relpath(full, ROOT), open(full, "rb").read()))
    files.append((f"{info}/METADATA", _metadata().encode()))
    files.append((f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: tlv_build\n"
                  b"Root-Is-Purelib: true\nTag: py3-none-any\n"))
    record = "".join(_record_line(p, d) for p, d in files) + f"{info}/RECORD,,\n"
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w",
                         zipfile.ZIP_DEFLATED) as z:
        for p, d in files:
            z.writestr(p, d)
        z.writestr(f"{info}/RECORD", record)
    return wheel_name
