#!/usr/bin/env python3
"""Runs every command README.md shows with its output, and compares the output.

Usage: Scripts/check-readme.py [README]

What counts as an example:
  * in an indented block, a line "$ COMMAND" and the lines after it, up to the next "$" line or
    the end of the block, which are COMMAND's expected output (standard output and error);
  * a line "<!-- checked: COMMAND -->" followed by a fenced block, which is COMMAND's output.
Blocks without a "$" line (synopses) are not run.

First the quick start's install step runs exactly as README.md writes it ("Scripts/install.sh",
from the repository root), which puts build-index, city-search and city-server on the PATH.
Then each command runs as written, each in a fresh `sh -c` with this process's PATH and
nothing added to it, in README order, in a scratch directory holding a link to Data/ (as the
checkout does), so the quick start's build-index writes the cities.cidx the later commands
search. The curl examples go to a city-server found on the PATH, started on a free port (the
README's 8080 is replaced by it); the library example is Examples/.build/debug's, built when
missing.

Comparison: an expected line "…" stands for any number of lines; in a JSON answer written over
several lines, a line starting with a space continues the one before, that space removed (so
" x" continues with "x" and "  x" with " x"); "tookMicroseconds" may
differ, and so may `--explain`'s times ("27,437 µs" and the spaces before it). A command
whose expected output starts with its program's name and a colon (an error
line) must exit with a non-zero status; every other must exit 0. Exits 1, showing both outputs,
when any example differs.
"""
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
PORT_IN_README = "127.0.0.1:8080"


def examples(text):
    """(line number, command, expected lines) in README order."""
    lines = text.split("\n")
    found = []
    index = 0
    while index < len(lines):
        line = lines[index]
        checked = re.match(r"<!-- checked: (.*) -->$", line)
        if checked and index + 1 < len(lines) and lines[index + 1].startswith("```"):
            end = index + 2
            while not lines[end].startswith("```"):
                end += 1
            found.append((index + 1, checked.group(1), lines[index + 2:end]))
            index = end + 1
            continue
        if line.startswith("    $ "):
            command, expected = line[6:], []
            index += 1
            while index < len(lines) and lines[index].startswith("    ") and not lines[index].startswith("    $ "):
                expected.append(lines[index][4:])
                index += 1
            found.append((index - len(expected), command, expected))
            continue
        index += 1
    return found


def normalized(lines):
    text = "\n".join(lines).rstrip("\n").split("\n") if lines else []
    if text and text[0].startswith("{"):   # a JSON answer wrapped for reading
        joined = []
        for line in text:
            if line.startswith(" ") and joined:
                joined[-1] += line[1:]
            else:
                joined.append(line)
        text = joined
    text = [re.sub(r'"tookMicroseconds": ?\d+', '"tookMicroseconds":N', line) for line in text]
    # --explain's times, and the time column's width (right-aligned under "time").
    text = [re.sub(r' +[0-9][0-9,.]* µs', ' N µs', line) for line in text]
    return [re.sub(r' +time$', ' time', line) for line in text]


def matches(expected, actual):
    """Whether actual fits expected, where a "…" line stands for any number of lines."""
    if not expected:
        return not actual
    if expected[0] == "…":
        return any(matches(expected[1:], actual[start:]) for start in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and matches(expected[1:], actual[1:])


def install_step(text):
    """The quick start's install command: its first indented line that runs Scripts/install.sh."""
    for line in text.split("\n"):
        if line.startswith("    Scripts/install.sh"):
            return line.strip().split("#")[0].strip()
    raise SystemExit("check-readme: README.md's quick start has no Scripts/install.sh line")


def ensure_built(path, build_command, directory):
    if not os.path.exists(path):
        subprocess.run(build_command, cwd=directory, check=True, stdout=sys.stderr)


class Server:
    def __init__(self, index_path):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        binary = shutil.which("city-server")
        if binary is None:
            raise SystemExit("check-readme: city-server is not on the PATH after the quick start")
        self.process = subprocess.Popen([binary, "--index", index_path, "--port", str(self.port)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health", timeout=2).read()
                return
            except OSError:
                if time.time() > deadline or self.process.poll() is not None:
                    raise SystemExit("check-readme: city-server did not start")
                time.sleep(0.2)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


def main():
    readme_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "README.md")
    with open(readme_path, encoding="utf-8") as readme:
        text = readme.read()
    found = examples(text)
    install = install_step(text)
    print(f"quick start: {install}", flush=True)
    subprocess.run(["sh", "-c", install], cwd=ROOT, check=True, stdout=sys.stderr)
    library_example = os.path.join(ROOT, "Examples/.build/debug/LibraryExample")
    scratch = tempfile.mkdtemp(prefix="check-readme-")
    os.symlink(os.path.join(ROOT, "Data"), os.path.join(scratch, "Data"))
    environment = dict(os.environ, NO_COLOR="1")
    server = None
    failures = 0
    try:
        for line_number, command, expected in found:
            run = command
            if "LibraryExample" in run:
                ensure_built(library_example, ["swift", "build", "--product", "LibraryExample"], os.path.join(ROOT, "Examples"))
                run = run.replace("Examples/.build/debug/LibraryExample", library_example)
            if run.startswith("curl "):
                if server is None:
                    server = Server(os.path.join(scratch, "cities.cidx"))
                run = run.replace(PORT_IN_README, f"127.0.0.1:{server.port}")
            result = subprocess.run(["sh", "-c", run], cwd=scratch, env=environment, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, timeout=600)
            actual = normalized(result.stdout.decode("utf-8", "replace").split("\n"))
            # A command whose shown output is its program's error line ("build-index: -:1:67: …")
            # must fail; every other must succeed.
            program = os.path.basename(command.split("|")[-1].split()[0])
            should_fail = bool(expected) and expected[0].startswith(program + ": ")
            status_right = (result.returncode != 0) == should_fail
            if not status_right:
                actual.append(f"(exit status {result.returncode}, expected {'non-zero' if should_fail else '0'})")
            if status_right and matches(normalized(expected), actual):
                print(f"ok    README.md:{line_number}: {command}")
            else:
                failures += 1
                print(f"FAIL  README.md:{line_number}: {command}\n  expected:")
                print("\n".join("    " + line for line in expected))
                print("  got:")
                print("\n".join("    " + line for line in actual))
    finally:
        if server:
            server.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"check-readme: {len(found) - failures} of {len(found)} examples match their output")
    sys.exit(1 if failures or not found else 0)


if __name__ == "__main__":
    main()
