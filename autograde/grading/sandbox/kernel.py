"""The sandbox side of the grading engine: a warm zygote that runs each submission in fresh namespaces.

This file runs inside bubblewrap as `python -I -S -c <this source> <control fd>`, so it imports only the
standard library and IPython, and never the course's own packages. Per job the zygote forks a
supervisor, which enters a new user, PID and IPC namespace and forks the executor: PID 1 of that
namespace, so every process a submission starts dies with it. The executor mounts a private tmpfs
for /tmp, HOME, the submission folder and /dev/shm, hides /proc, sets rlimits, drops every
capability, then runs the job's steps and writes one JSON record per step to fd 3. Expected values
never come here: a probe step only reports what the student's functions returned, as plain numbers.
"""
from __future__ import annotations

import ctypes
import json
import os
import resource
import select
import shutil
import signal
import socket
import sys
import tempfile
import time
from typing import Any

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWIPC = 0x08000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_BIND, MS_REC, MS_PRIVATE = 1, 2, 4, 8, 4096, 16384, 1 << 18
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT = 1, 4, 24, 38, 47
CAPABILITY_VERSION_3 = 0x20080522
STUDENT_UID = 1000
SCRATCH = "/sandbox"
PRIVATE_DIRS = {"tmp": "/tmp", "home": "/home/student", "submission": "/submission", "shm": "/dev/shm"}
"""Sub-folders of the per-job tmpfs and where each is mounted: the only places a submission can write."""
EXIT_OK, EXIT_DIED, EXIT_PROCESSES, EXIT_KILLED = 0, 1, 2, 3
"""The supervisor's exit codes: the executor finished, died on its own, started too many processes, was killed on request."""
RESULTS_FD = 3
JOB_NICENESS, SLOW_NICENESS, SLOW_JOB_S = 5, 10, 1.0
"""Student code runs below the grader's own priority, and lower still once its job has run longer than SLOW_JOB_S; not at
19, where a machine busy with other work starved an interrupted loop so long that it was killed before reporting back,
losing the definitions its cell had made."""
MESSAGE_BYTES = 65536

_type, _float_add, _int_add, _bool, _str = type, float.__add__, int.__add__, bool, str
"""Captured before any student code runs, so rebinding builtins cannot change how answers are read."""


def plain_number(value: Any) -> tuple[bool, Any]:
    """(True, a plain int or float) for an int/float (or subclass) value, else (False, why it is not a number)."""
    if _type(value) is _bool:
        return False, "returned a bool, expected a number"
    try:
        number = _float_add(value, 0.0)
    except TypeError:
        try:
            number = _int_add(value, 0)
        except TypeError:
            return False, f"returned {_type_name(value)}, expected a plain int or float"
    if number != number:
        return False, "returned NaN"
    return True, number


def _type_name(value: Any) -> str:
    """The name of a value's type, safe against metaclass tricks."""
    name = _type.__dict__["__name__"].__get__(_type(value))
    return name if _type(name) is _str else "?"


class _StepTimeout(BaseException):
    """Raised by SIGALRM when a step runs past its time."""


def _on_alarm(signum: int, frame: Any) -> None:
    """SIGALRM handler: interrupt the running step."""
    raise _StepTimeout()


class _Libc:
    """The few Linux calls Python's os module lacks here, through ctypes."""

    def __init__(self, isolate: bool) -> None:
        self.isolate = isolate
        self.lib = ctypes.CDLL(None, use_errno=True)
        self.lib.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]

    def check(self, result: int, what: str) -> None:
        """Raise OSError naming the call when it failed."""
        if result != 0:
            error = ctypes.get_errno()
            raise OSError(error, f"{what}: {os.strerror(error)}")

    def unshare(self, flags: int) -> None:
        """unshare(2)."""
        self.check(self.lib.unshare(flags), "unshare")

    def mount(self, source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
        """mount(2)."""
        encode = lambda text: None if text is None else text.encode()  # noqa: E731
        self.check(self.lib.mount(encode(source), encode(target), encode(fstype), flags, encode(data)), f"mount {target}")

    def prctl(self, option: int, arg: int, arg3: int = 0) -> int:
        """prctl(2), returning its result."""
        return self.lib.prctl(option, ctypes.c_ulong(arg), ctypes.c_ulong(arg3), ctypes.c_ulong(0), ctypes.c_ulong(0))

    def drop_capabilities(self) -> None:
        """Empty the bounding, ambient, effective, permitted and inheritable sets; forbid regaining privileges."""
        for capability in range(64):
            self.prctl(PR_CAPBSET_DROP, capability)
        self.prctl(PR_CAP_AMBIENT, 4)  # PR_CAP_AMBIENT_CLEAR_ALL
        header = (ctypes.c_uint32 * 2)(CAPABILITY_VERSION_3, 0)
        data = (ctypes.c_uint32 * 6)()
        self.check(self.lib.capset(header, data), "capset")
        self.check(self.prctl(PR_SET_NO_NEW_PRIVS, 1), "no_new_privs")


# --- zygote ---------------------------------------------------------------------------------------

def serve(control_fd: int, isolate: bool) -> None:
    """Zygote loop: take one job at a time from the control socket until the grader closes it.

    Without `isolate` (the instructor's explicit opt-out) jobs get rlimits and a process group only.
    """
    libc = _Libc(isolate)
    libc.prctl(PR_SET_DUMPABLE, 0)  # a submission that could see us still cannot read our memory
    shell = _warm_shell()  # imported once, at start (the grader starts sandboxes before it has work for them)
    control = socket.socket(fileno=control_fd)
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(control, MESSAGE_BYTES, 4)
        except OSError:
            return
        if not message:
            return
        request = json.loads(message)
        status = _run_job(libc, shell, control, request, fds)
        control.send(json.dumps({"op": "ended", "status": status}).encode())


def _warm_shell() -> Any:
    """An IPython shell with history off, imported once here so each job only forks."""
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.enabled = False
    shell = InteractiveShell.instance(config=config)
    _recording_display(shell)
    return shell


def _run_job(libc: _Libc, shell: Any, control: socket.socket, request: dict[str, Any], fds: list[int]) -> int:
    """Fork the supervisor for one job, forward a kill request to it, and return its exit code."""
    supervisor = os.fork()
    if supervisor == 0:
        control.close()
        os._exit(_supervise(libc, shell, request, fds))
    for fd in fds:
        os.close(fd)
    exited = os.pidfd_open(supervisor)
    try:
        while True:
            ready, _, _ = select.select([control, exited], [], [])
            if exited in ready:
                return os.waitstatus_to_exitcode(os.waitpid(supervisor, 0)[1])
            message = control.recv(MESSAGE_BYTES)
            if not message:  # the grader is gone: stop the job, then the loop ends
                os.kill(supervisor, signal.SIGTERM)
            elif json.loads(message).get("op") == "kill":
                os.kill(supervisor, signal.SIGTERM)
    finally:
        os.close(exited)


# --- supervisor -----------------------------------------------------------------------------------

def _supervise(libc: _Libc, shell: Any, request: dict[str, Any], fds: list[int]) -> int:
    """Enter new user/PID/IPC namespaces, fork the executor as their PID 1, and watch it."""
    if libc.isolate:
        uid, gid = os.geteuid(), os.getegid()
        libc.unshare(CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWIPC)
        _write("/proc/self/uid_map", f"{STUDENT_UID} {uid} 1\n")
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/gid_map", f"{STUDENT_UID} {gid} 1\n")
    scratch = None if libc.isolate else _scratch_folders()
    trusted = _pids()
    started = time.monotonic()
    executor = os.fork()
    if executor == 0:
        try:
            _execute(libc, shell, request, fds)
        finally:
            os._exit(0)
    for fd in fds:
        os.close(fd)
    outcome = [EXIT_OK]

    def kill_job() -> None:
        """Kill the executor: with isolation it is PID 1 of its namespace, so everything it started goes too."""
        for kill in (os.kill,) if libc.isolate else (os.killpg, os.kill):
            try:
                kill(executor, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def stop(signum: int, frame: Any) -> None:
        outcome[0] = EXIT_KILLED
        kill_job()

    signal.signal(signal.SIGTERM, stop)
    exited = os.pidfd_open(executor)
    demoted: set[int] = set()
    while True:
        select.select([exited], [], [], 0.01)  # wakes at once when the executor ends, else every 10 ms to watch the job
        pid, status = os.waitpid(executor, os.WNOHANG)
        if pid:
            if outcome[0] == EXIT_OK and os.waitstatus_to_exitcode(status) != 0:
                outcome[0] = EXIT_DIED
            if scratch is not None:
                kill_job()  # without a PID namespace, what the job left running dies with its process group
                shutil.rmtree(scratch, ignore_errors=True)
            return outcome[0]
        if not libc.isolate or outcome[0] != EXIT_OK:
            continue  # without a PID namespace the machine's other processes would be counted as the job's
        job = _pids() - trusted
        if len(job) > int(request["processes"]):
            outcome[0] = EXIT_PROCESSES
            kill_job()
        elif time.monotonic() - started > SLOW_JOB_S:
            demoted |= _demote(job - demoted)


def _pids() -> set[int]:
    """Processes visible in the worker sandbox: ours, and the job's (one job runs at a time)."""
    return {int(name) for name in os.listdir("/proc") if name.isdigit()}


def _demote(pids: set[int]) -> set[int]:
    """A lower CPU priority for a job that runs long (a loop waiting for its timeout), so other submissions go first."""
    for pid in pids:
        try:
            os.setpriority(os.PRIO_PROCESS, pid, SLOW_NICENESS)
        except OSError:
            pass
    return pids


def _write(path: str, text: str) -> None:
    """Write a small /proc file."""
    with open(path, "w", encoding="ascii") as handle:
        handle.write(text)


# --- executor -------------------------------------------------------------------------------------

def _execute(libc: _Libc, shell: Any, request: dict[str, Any], fds: list[int]) -> None:
    """PID 1 of the job: private mounts, limits, no capabilities; then run the steps read from stdin."""
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    job_in, results = fds
    if libc.isolate:
        os.setpgid(0, 0)  # its own process group: kill(0) reaches the job, never the zygote or the grader
        _private_mounts(libc, int(request["scratch_bytes"]))
    else:
        os.setsid()
    os.dup2(job_in, 0)
    os.dup2(results, RESULTS_FD)
    null = os.open("/dev/null", os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.closerange(RESULTS_FD + 1, 1 << 16)
    job = json.loads(_read_all(0))
    for name, text in job["files"].items():
        with open(os.path.join(PRIVATE_DIRS["submission"], os.path.basename(name)), "w", encoding="utf-8") as handle:
            handle.write(text)
    os.chdir(PRIVATE_DIRS["submission"])
    home = PRIVATE_DIRS["home"]
    os.environ.update(HOME=home, TMPDIR=PRIVATE_DIRS["tmp"], IPYTHONDIR=os.path.join(home, ".ipython"),
                      MPLCONFIGDIR=os.path.join(home, ".config", "matplotlib"), **job["env"])
    _set_limits(request)
    os.nice(JOB_NICENESS)
    if libc.isolate:
        libc.drop_capabilities()
    signal.signal(signal.SIGALRM, _on_alarm)
    out = os.fdopen(RESULTS_FD, "w", encoding="utf-8")
    runner = _StepRunner(shell, out, int(job["output_bytes"]))
    ends = time.monotonic() + job["time_limit"] if job.get("time_limit") is not None else float("inf")
    for index, step in enumerate(job["steps"]):
        if not runner.run(index, step, ends - time.monotonic()):
            return  # the submission's time is up: the grader records the steps left as not run
    out.write(json.dumps({"event": "finished"}) + "\n")
    out.flush()


def _read_all(fd: int) -> bytes:
    """Everything written to fd until the writer closes it."""
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


def _private_mounts(libc: _Libc, scratch_bytes: int) -> None:
    """A fresh tmpfs behind every writable path, and an empty read-only /proc."""
    libc.unshare(CLONE_NEWNS)
    libc.mount(None, "/", None, MS_REC | MS_PRIVATE)
    libc.mount("tmpfs", SCRATCH, "tmpfs", MS_NOSUID | MS_NODEV,
               f"size={scratch_bytes},mode=0755,uid={STUDENT_UID},gid={STUDENT_UID}")
    for name, target in PRIVATE_DIRS.items():
        os.mkdir(os.path.join(SCRATCH, name))
        if os.path.isdir(target):
            libc.mount(os.path.join(SCRATCH, name), target, None, MS_BIND)
    libc.mount("tmpfs", "/proc", "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0555")


def _scratch_folders() -> str:
    """Without isolation: the job's folders in a fresh temporary directory instead of mounts; returns it."""
    root = tempfile.mkdtemp(prefix="autograde-job-")
    for name in PRIVATE_DIRS:
        os.mkdir(os.path.join(root, name))
        PRIVATE_DIRS[name] = os.path.join(root, name)
    return root


def _set_limits(request: dict[str, Any]) -> None:
    """Memory, CPU time, file size and no core dumps, inherited by everything the submission starts."""
    for limit, value in ((resource.RLIMIT_AS, request["memory_bytes"]), (resource.RLIMIT_CPU, request["cpu_seconds"]),
                         (resource.RLIMIT_FSIZE, request["file_bytes"]), (resource.RLIMIT_CORE, 0)):
        resource.setrlimit(limit, (int(value), int(value)))


def _mark_cut(outputs: list[dict[str, Any]]) -> None:
    """Note once, as the last output, that the cell printed more than its budget."""
    if not outputs or outputs[-1].get("name") != "truncated":
        outputs[:] = [o for o in outputs if o.get("name") != "truncated"]
        outputs.append({"output_type": "stream", "name": "truncated", "text": ""})


class _CappedStream:
    """A text stream that keeps at most `limit` characters and drops the rest."""

    def __init__(self, name: str, sink: list[dict[str, Any]], budget: list[int]) -> None:
        self.name, self.sink, self.budget = name, sink, budget
        self.encoding = "utf-8"

    def write(self, text: str) -> int:
        """Append to the last stream output of the same name, within the shared budget."""
        if _type(text) is not _str:
            raise TypeError(f"write() argument must be str, not {_type_name(text)}")
        kept = text[: max(self.budget[0], 0)]
        self.budget[0] -= len(text)
        if kept:
            if self.sink and self.sink[-1].get("output_type") == "stream" and self.sink[-1]["name"] == self.name:
                self.sink[-1]["text"] += kept
            else:
                self.sink.append({"output_type": "stream", "name": self.name, "text": kept})
        if self.budget[0] < 0:
            _mark_cut(self.sink)
        return len(text)

    def flush(self) -> None:
        """Nothing is buffered."""

    def isatty(self) -> bool:
        """Not a terminal."""
        return False


def _record(shell: Any, output: dict[str, Any]) -> None:
    """Keep a display output of the running cell if the budget allows."""
    runner = getattr(shell, "_course_runner", None)
    if runner is not None:
        runner.keep(output)


def _jsonable(value: Any) -> Any:
    """A display payload as JSON-safe data (strings, numbers, lists, dicts), else its str()."""
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError):
        return str(value)


def _recording_display(shell: Any) -> None:
    """Make the shell record display_data and execute_result outputs instead of printing them, as ipykernel does."""
    from IPython.core.displayhook import DisplayHook
    from IPython.core.displaypub import DisplayPublisher

    class RecordingPublisher(DisplayPublisher):
        def publish(self, data: Any, metadata: Any = None, source: Any = None, *, transient: Any = None,
                    update: bool = False, **kwargs: Any) -> None:
            _record(self.shell, {"output_type": "display_data", "data": _jsonable(data), "metadata": _jsonable(metadata or {})})

    class RecordingDisplayHook(DisplayHook):
        def write_output_prompt(self) -> None:
            self.course_result = {"output_type": "execute_result", "execution_count": self.prompt_count,
                                  "data": {}, "metadata": {}}

        def write_format_data(self, format_dict: Any, md_dict: Any = None) -> None:
            self.course_result.update(data=_jsonable(format_dict), metadata=_jsonable(md_dict or {}))

        def finish_displayhook(self) -> None:
            _record(self.shell, self.course_result)
            super().finish_displayhook()

    shell.display_pub = RecordingPublisher(shell=shell)
    shell.displayhook = shell.display_trap.hook = RecordingDisplayHook(shell=shell)


class _StepRunner:
    """Runs cells and probe calls in the student's namespace and writes one record per step."""

    def __init__(self, shell: Any, out: Any, output_bytes: int) -> None:
        self.shell, self.out, self.output_bytes = shell, out, output_bytes
        self.outputs: list[dict[str, Any]] = []
        self.budget, self.timeout = [0], 0.0
        shell._course_runner = self
        shell._showtraceback = self.show_traceback
        self.write, self.dumps, self.alarm = out.write, json.dumps, signal.setitimer

    def keep(self, output: dict[str, Any]) -> None:
        """Record one output if the cell's budget still has room."""
        self.budget[0] -= len(json.dumps(output))
        if self.budget[0] >= 0:
            self.outputs.append(output)
        else:
            _mark_cut(self.outputs)

    def show_traceback(self, etype: Any, evalue: Any, stb: Any) -> None:
        """IPython hook: record the error of the running cell (an interrupted cell as one line, not our frames)."""
        if etype is _StepTimeout:
            message = f"the cell ran longer than {self.timeout:g} s and was interrupted"
            self.keep({"output_type": "error", "ename": "TimeoutError", "evalue": message,
                       "traceback": [f"TimeoutError: {message}"]})
            return
        self.keep({"output_type": "error", "ename": _type_name(evalue) if evalue is not None else str(etype),
                   "evalue": _safe_str(evalue), "traceback": [str(line)[:4000] for line in list(stb)[:200]]})

    def emit(self, record: dict[str, Any]) -> None:
        """Write one JSON line to the grader."""
        self.write(self.dumps(record) + "\n")
        self.out.flush()

    def run(self, index: int, step: dict[str, Any], time_left: float) -> bool:
        """Run one step under its time limit (no more than the job's `time_left`) and report it; False if no time is left."""
        if time_left <= 0:
            return False
        self.emit({"event": "start", "step": index})
        self.outputs, self.budget[0], self.timeout = [], self.output_bytes, min(float(step["timeout"]), time_left)
        streams = (_CappedStream("stdout", self.outputs, self.budget), _CappedStream("stderr", self.outputs, self.budget))
        sys.stdout, sys.stderr = streams if step.get("keep", True) else (_CappedStream("stdout", [], [0]),) * 2
        status, answers, count = "ok", None, None
        try:
            self.alarm(signal.ITIMER_REAL, self.timeout)
            if step["kind"] == "cell":
                count = self.run_cell(step)
            else:
                answers = self.run_probe(step["calls"], step.get("call_timeout"))
        except _StepTimeout:
            status = "timeout"
        except BaseException as error:  # a student's object failed inside our own bookkeeping
            status = f"error: {_type_name(error)}"
        finally:
            self.alarm(signal.ITIMER_REAL, 0)
            sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
        record: dict[str, Any] = {"event": "done", "step": index, "status": status}
        if step["kind"] == "cell":
            record.update(outputs=self.outputs if step.get("keep", True) else [], execution_count=count)
        else:
            record["answers"] = answers if answers is not None else []
        self.emit(record)
        return True

    def run_cell(self, step: dict[str, Any]) -> int:
        """Run a cell as IPython does, under the __name__ the step asks for; returns its execution count."""
        namespace = self.shell.user_ns
        namespace["__name__"] = step.get("name", "__main__")
        try:
            self.shell.run_cell(step["source"], store_history=True)
        except _StepTimeout:
            raise
        finally:
            namespace["__name__"] = "__main__"
        return self.shell.execution_count - 1

    def run_probe(self, calls: list[list[Any]], call_timeout: float | None) -> list[list[Any]]:
        """Call the student's functions; each answer is [1, number] or [0, why not], in call order.

        With `call_timeout`, each call gets at most that long; the first that does not return ends the step.
        """
        answers: list[list[Any]] = []
        namespace = self.shell.user_ns
        ends = time.monotonic() + self.timeout
        limit = f"{call_timeout:g} s" if call_timeout is not None else "the test's time limit"
        try:
            for function, args, kwargs in calls:
                if call_timeout is not None:
                    self.alarm(signal.ITIMER_REAL, max(min(call_timeout, ends - time.monotonic()), 0.001))
                answers.append(_answer(namespace, function, args, kwargs))
        except _StepTimeout:
            answers.append([0, f"did not return within {limit}"])
            answers.extend([0, "not called: an earlier call of this test did not return"] for _ in calls[len(answers):])
        return answers


def _answer(namespace: Any, function: str, args: list[Any], kwargs: dict[str, Any]) -> list[Any]:
    """One probe call's answer."""
    try:
        callee = namespace[function]
    except _StepTimeout:
        raise
    except BaseException:  # a missing name, or a namespace the student replaced with something odd
        return [0, f"{function} is not defined"]
    try:
        value = callee(*args, **kwargs)
    except _StepTimeout:
        raise
    except BaseException as error:  # SystemExit and KeyboardInterrupt from student code are answers too
        return [0, f"raised {_type_name(error)}: {_safe_str(error)}"]
    ok, number = plain_number(value)
    return [1 if ok else 0, number]


def _safe_str(value: Any) -> str:
    """str(value) cut to one short line, or a placeholder when the student's __str__ fails."""
    try:
        text = _str(value)
    except _StepTimeout:
        raise
    except BaseException:
        return "<unprintable>"
    return text.splitlines()[0][:300] if text else ""


if __name__ == "__main__":
    # argv: control fd, "isolate" or "no-isolation", then the folders that hold IPython and the other packages
    sys.path.extend(sys.argv[3:])
    serve(int(sys.argv[1]), isolate=sys.argv[2] == "isolate")
