"""The command that starts a sandbox: bubblewrap around the zygote, seeing Python and its packages, not the course."""
from __future__ import annotations

import importlib.metadata
import os
import shutil
import site
import sys
from pathlib import Path

KERNEL = Path(__file__).with_name("kernel.py")
PACKAGES_MOUNT = "/opt/packages"
COURSE_DISTRIBUTION = "zero-fsdp-course"
"""This course's distribution (pyproject.toml's project name): its files are hidden from the sandbox."""
WRITABLE_DIRS = ("/sandbox", "/home/student", "/submission")
"""Empty, read-only mount points where the executor puts its private tmpfs."""


class SandboxUnavailable(RuntimeError):
    """bubblewrap is missing or cannot create namespaces here."""


def package_dirs() -> list[Path]:
    """The site-packages folders of this Python environment (IPython and friends live there)."""
    return [Path(p) for p in site.getsitepackages() if Path(p).is_dir()]


def course_entries(site_dir: Path) -> list[Path]:
    """Files and folders of this course's own distribution inside a site-packages folder."""
    ours = {site_dir / str(f) for f in importlib.metadata.distribution(COURSE_DISTRIBUTION).files or ()}
    hidden: list[Path] = []
    for top in sorted({site_dir / path.relative_to(site_dir).parts[0] for path in ours if path.is_relative_to(site_dir)}):
        if top.is_dir() and all(p in ours for p in top.rglob("*") if p.is_file()):
            hidden.append(top)
        elif top.is_dir():
            hidden.extend(sorted(p for p in ours if p.is_relative_to(top) and p.is_file()))
        elif top.exists():
            hidden.append(top)
    return hidden


def _root_layout() -> list[str]:
    """/bin, /lib… as on this machine: symlinks into /usr where the system has merged /usr, read-only binds otherwise."""
    args = ["--ro-bind", "/usr", "/usr"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    return args


def _hide(entry: Path, mounted: str) -> list[str]:
    """Arguments that cover one course entry inside a mounted package folder."""
    if entry.is_dir():
        return ["--tmpfs", mounted, "--remount-ro", mounted]
    return ["--ro-bind", "/dev/null", mounted]


def sandbox_command(isolate: bool) -> tuple[list[str], list[str]]:
    """(command up to the interpreter's arguments, package folders as the zygote sees them).

    The zygote is started as `<command> <control fd> <isolate|no-isolation> <package folders…>`.
    """
    python = os.path.realpath(sys.executable)
    interpreter = [python, "-I", "-S", "-c", KERNEL.read_text(encoding="utf-8")]
    packages = package_dirs()
    if not isolate:
        return interpreter, [str(p) for p in packages]
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SandboxUnavailable("bubblewrap (bwrap) is not installed")
    # No --new-session: the sandbox stays in the grader's session (and scheduling group, so a looping submission's
    # low priority counts); instead there is no terminal to reach (/dev/tty is /dev/null) and each job runs in its own
    # process group, so neither TIOCSTI nor kill(0) can touch the grader.
    args = [bwrap, "--unshare-all", "--die-with-parent", "--hostname", "sandbox", *_root_layout()]
    prefix = Path(sys.base_prefix).resolve()
    if not prefix.is_relative_to("/usr"):
        args += ["--ro-bind", str(prefix), str(prefix)]
    mounted = []
    for index, folder in enumerate(packages):
        target = f"{PACKAGES_MOUNT}/{index}"
        args += ["--ro-bind", str(folder), target]
        for entry in course_entries(folder):
            args += _hide(entry, f"{target}/{entry.relative_to(folder)}")
        mounted.append(target)
    for folder in WRITABLE_DIRS:
        args += ["--dir", folder]
    args += ["--proc", "/proc", "--dev", "/dev", "--ro-bind", "/dev/null", "/dev/tty", "--tmpfs", "/tmp",
             "--remount-ro", "/dev", "--remount-ro", "/",
             "--clearenv", "--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin", "--setenv", "LANG", "C.UTF-8",
             "--setenv", "HOME", "/home/student", "--setenv", "IPYTHONDIR", "/tmp/ipython", "--setenv", "USER", "student",
             "--setenv", "MPLBACKEND", "module://matplotlib_inline.backend_inline", "--chdir", "/", "--"]
    return args + interpreter, mounted
