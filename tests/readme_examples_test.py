#!/usr/bin/env python3
"""README as executable documentation (issue 17, Deliver 6): runs every example command of the
README's "Command reference", in order, in a temporary folder, and fails when one exits non-zero.

The folder holds links to the source tree's examples/ and to ../shared (so the README's relative
paths work unchanged); every store an example reads must be created by an earlier example.
`build/perfplan` becomes the binary under test. Two rewrites, both printed: the service example's
port 8080 becomes a free port (other tests may hold 8080), and a trailing `&` (the service) is
started in the background and stopped at the end. An example that needs something the machine
lacks (a gmond on 127.0.0.1:8649) is reported as SKIPPED with the reason, never passed silently;
without ../shared/data the whole test exits 77 (skipped).

Usage: readme_examples_test.py PERFPLAN_BINARY SOURCE_DIR
"""
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

TIMEOUT_SECONDS = 600


def examples(readme):
    section = re.search(r"^## Command reference\n(.*?)(?=^## )", readme, re.S | re.M).group(1)
    commands = []
    for block in re.findall(r"^```sh\n(.*?)^```", section, re.S | re.M):
        current = ""
        for line in block.split("\n"):
            if not line.strip() and not current:
                continue
            current += line + "\n"
            # A command continues after a trailing backslash or inside an open single quote.
            if line.endswith("\\") or current.count("'") % 2 == 1:
                continue
            commands.append(current.strip())
            current = ""
    return commands


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_open(port):
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def main():
    binary, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    shared = os.path.normpath(os.path.join(src, "..", "shared"))
    if not os.path.isdir(os.path.join(shared, "data")):
        print(f"SKIPPED: {shared}/data is absent; the README examples read it")
        return 77
    commands = examples(open(os.path.join(src, "README.md")).read())
    root = tempfile.mkdtemp(prefix="perfplan-readme-")
    work = os.path.join(root, "work")
    os.mkdir(work)
    os.symlink(os.path.join(src, "examples"), os.path.join(work, "examples"))
    os.symlink(shared, os.path.join(root, "shared"))
    os.mkdir(os.path.join(work, "build"))
    os.symlink(binary, os.path.join(work, "build", "perfplan"))
    port = free_port()
    background = []
    failures = 0
    try:
        for n, command in enumerate(commands, 1):
            if "--source 127.0.0.1:8649" in command and not port_open(8649):
                print(f"[{n}] SKIPPED (no gmond answers on 127.0.0.1:8649): {command}")
                continue
            command = command.replace("127.0.0.1:8080", f"127.0.0.1:{port}").replace(
                "localhost:8080", f"localhost:{port}")
            print(f"[{n}] {command}", flush=True)
            if command.endswith("&"):
                background.append(subprocess.Popen(command[:-1], shell=True, cwd=work,
                                                   stdout=subprocess.DEVNULL,
                                                   stderr=subprocess.DEVNULL,
                                                   start_new_session=True))
                deadline = time.time() + 60
                while not port_open(port) and time.time() < deadline:
                    time.sleep(0.2)
                continue
            p = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=work,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=TIMEOUT_SECONDS)
            if p.returncode != 0:
                failures += 1
                print(f"    FAILED: exit {p.returncode}\n    {p.stderr.decode(errors='replace')[-800:]}")
        print(f"{len(commands)} examples, {failures} failed")
        return 1 if failures else 0
    finally:
        for b in background:
            os.killpg(b.pid, signal.SIGTERM)
            b.wait()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
