"""tlv_build — the PEP 517 build backend of the tlv package, standard library
only (the machines tlv targets may reach no package index: `pip install
--no-index --no-build-isolation ./python` needs nothing but pip).

A wheel is the tlv/ directory plus, by default, libtlv itself: built from
the tlv source tree around python/ with CMake (the libtlv and libtlv-export
targets only) and bundled as tlv/_libtlv/LIBDIR/libtlv.so.0,
libtlv-export.so.0 and tlv/_libtlv/DATADIR/tlv/rules/ (libtlv finds its
rules next to itself), with tlv/_location.py saying where: the package then
needs no setting to find its library. Such a wheel is tagged for this
platform (py3-none-linux_x86_64); it needs the run-time libraries libtlv
links (PCRE2, cJSON, SQLite) from the system.

Config settings (pip --config-settings KEY=VALUE):
  libtlv=bundle   (default when the source tree is there) build and bundle libtlv;
  libtlv=system   a pure wheel that finds an installed libtlv (tlv._lib);
  build-dir=DIR   bundle the libraries of this existing CMake build of tlv
                  (its targets are brought up to date) instead of a new one;
  source-dir=DIR  the tlv source tree (default: the directory above python/).
The version is read from tlv/__init__.py."""
import base64
import glob
import hashlib
import io
import os
import re
import shutil
import subprocess
import sysconfig
import tarfile
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "tlv"
SUMMARY = "Trace-log converter and visualizer: ctypes bindings over libtlv"


def _version():
    with open(os.path.join(ROOT, NAME, "__init__.py"), encoding="utf-8") as f:
        return re.search(r'^__version__ = "([^"]+)"', f.read(), re.M).group(1)


def _metadata():
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {_version()}\n"
            f"Summary: {SUMMARY}\nRequires-Python: >=3.8\n"
            "Provides-Extra: pandas\nRequires-Dist: pandas; extra == \"pandas\"\n")


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}\n"


def _settings(config_settings):
    s = dict(config_settings or {})
    source = os.path.abspath(s.get("source-dir") or os.path.join(ROOT, ".."))
    is_tree = os.path.exists(os.path.join(source, "libtlv", "include", "tlv", "tlv.h"))
    mode = s.get("libtlv") or ("bundle" if is_tree or s.get("build-dir") else "system")
    if mode not in ("bundle", "system"):
        raise ValueError(f"tlv_build: libtlv={mode!r}: bundle or system")
    if mode == "bundle" and not is_tree:
        raise ValueError(f"tlv_build: libtlv=bundle needs the tlv source tree; {source} is not "
                         "one (source-dir=DIR, or libtlv=system for an installed libtlv)")
    return mode, source, s.get("build-dir")


def _package_files():
    """(path in the wheel, bytes) of the Python package itself."""
    files = []
    for dirpath, dirs, names in os.walk(os.path.join(ROOT, NAME)):
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "_libtlv"))
        for n in sorted(names):
            if (n.endswith(".py") and n != "_location.py") or n == "py.typed":
                full = os.path.join(dirpath, n)
                with open(full, "rb") as f:
                    files.append((os.path.relpath(full, ROOT), f.read()))
    return files


def _cmake_cache(build, key, default):
    try:
        with open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8") as f:
            m = re.search(rf"^{key}:[A-Z]+=(.*)$", f.read(), re.M)
    except OSError:
        return default
    return m.group(1) if m and m.group(1) else default


def _run(cmd):
    print("tlv_build:", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def _build_libtlv(source, build):
    """Brings libtlv and libtlv-export of `build` up to date (configuring a
    new build when it has none); returns the build directory."""
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        # No build RPATH: the bundled libraries must not point into a temporary directory.
        _run(["cmake", "-S", source, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
              "-DBUILD_TESTING=OFF", "-DCMAKE_INSTALL_LIBDIR=lib", "-DCMAKE_SKIP_BUILD_RPATH=ON"])
    _run(["cmake", "--build", build, "--target", "tlv_shared", "tlv_export_shared",
          "-j", str(os.cpu_count() or 2)])
    return build


def _bundle(source, build_dir):
    """(path in the wheel, bytes) of libtlv, libtlv-export and the rules,
    and of tlv/_location.py naming where the libraries are."""
    tmp = None
    if not build_dir:
        tmp = tempfile.mkdtemp(prefix="tlv-build-")
        build_dir = tmp
    try:
        build = _build_libtlv(source, os.path.abspath(build_dir))
        libdir = _cmake_cache(build, "CMAKE_INSTALL_LIBDIR", "lib")
        datadir = _cmake_cache(build, "CMAKE_INSTALL_DATADIR", "share")
        files = []
        for soname in ("libtlv.so.0", "libtlv-export.so.0"):
            found = [p for p in [os.path.join(build, soname)] if os.path.exists(p)] or \
                sorted(glob.glob(os.path.join(build, "**", soname), recursive=True))
            if not found:
                raise RuntimeError(f"tlv_build: no {soname} in {build} after building it")
            with open(os.path.realpath(found[0]), "rb") as f:
                files.append((f"{NAME}/_libtlv/{libdir}/{soname}", f.read()))
        rules = os.path.join(source, "rules")
        for n in sorted(os.listdir(rules)):
            if n.endswith((".cnv", ".resh", ".viz", ".res")):
                with open(os.path.join(rules, n), "rb") as f:
                    files.append((f"{NAME}/_libtlv/{datadir}/tlv/rules/{n}", f.read()))
        files.append((f"{NAME}/_location.py",
                      ('"""Where this wheel put libtlv (written by tlv_build)."""\n'
                       f'LIBDIR = "_libtlv/{libdir}"\n').encode()))
        return files
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def _write_wheel(wheel_directory, files, tag):
    version = _version()
    info = f"{NAME}-{version}.dist-info"
    wheel_name = f"{NAME}-{version}-{tag}.whl"
    purelib = "true" if tag.endswith("-any") else "false"
    files = files + [
        (f"{info}/METADATA", _metadata().encode()),
        (f"{info}/WHEEL", (f"Wheel-Version: 1.0\nGenerator: tlv_build\n"
                           f"Root-Is-Purelib: {purelib}\nTag: {tag}\n").encode())]
    record = "".join(_record_line(p, d) for p, d in files) + f"{info}/RECORD,,\n"
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w",
                         zipfile.ZIP_DEFLATED) as z:
        for p, d in files:
            zi = zipfile.ZipInfo(p, date_time=(2024, 1, 1, 0, 0, 0))
            zi.external_attr = (0o755 if p.endswith(".so.0") else 0o644) << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, d)
        z.writestr(f"{info}/RECORD", record)
    return wheel_name


# ---- PEP 517 hooks --------------------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = f"{NAME}-{_version()}.dist-info"
    os.makedirs(os.path.join(metadata_directory, info), exist_ok=True)
    with open(os.path.join(metadata_directory, info, "METADATA"), "w", encoding="utf-8") as f:
        f.write(_metadata())
    return info


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    mode, source, build_dir = _settings(config_settings)
    files = _package_files()
    if mode == "system":
        return _write_wheel(wheel_directory, files, "py3-none-any")
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return _write_wheel(wheel_directory, files + _bundle(source, build_dir),
                        f"py3-none-{platform}")


def build_sdist(sdist_directory, config_settings=None):
    """The python/ folder alone: a wheel built from it finds an installed
    libtlv (libtlv=system), as there is no source tree to build one from."""
    base = f"{NAME}-{_version()}"
    name = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as tar:
        for dirpath, dirs, names in os.walk(ROOT):
            dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", ".pytest_cache"))
            for n in sorted(names):
                full = os.path.join(dirpath, n)
                if n == "_location.py" or n.endswith(".pyc"):
                    continue
                tar.add(full, arcname=os.path.join(base, os.path.relpath(full, ROOT)),
                        recursive=False)
        pkg_info = f"{_metadata()}".encode()
        ti = tarfile.TarInfo(f"{base}/PKG-INFO")
        ti.size = len(pkg_info)
        tar.addfile(ti, io.BytesIO(pkg_info))
    return name
