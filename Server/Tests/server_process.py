"""Starts city-server for the tests in browser/ and live/: on a free port, waiting for the
line that names its address; stops it with SIGTERM (a graceful shutdown: exit status 0, and no
error in its log)."""
import os, re, subprocess, threading, time


class ServerProcess:
    def __init__(self, binary, index, *arguments, open_files=None):
        """`open_files`: the process's open-file limit (`ulimit -n`), when given."""
        command = [binary, "--index", index, "--port", "0", *arguments]
        if open_files is not None:
            command = ["sh", "-c", f'ulimit -n {int(open_files)} && exec "$0" "$@"', *command]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.port = None
        self.log = []
        while self.port is None:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit(f"city-server exited with {self.process.wait()} before listening")
            self.log.append(line)
            found = re.search(r"at http://([0-9.]+):(\d+)/", line)
            if found:
                self.host, self.port = found.group(1), int(found.group(2))
        self.base = f"http://{self.host}:{self.port}/"
        # The rest of the log is read as it comes, so that a full pipe never stalls the server.
        self.reader = threading.Thread(target=lambda: self.log.extend(self.process.stdout), daemon=True)
        self.reader.start()

    def cpu_seconds(self):
        """The server's CPU time so far (user and system), from /proc."""
        fields = open(f"/proc/{self.process.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        """SIGTERM; then the exit status must be 0 within 30 s, and the stop logged as no error."""
        time.sleep(0.5)   # what was logged before the signal has been read by then
        log_before = len(self.log)
        self.process.terminate()
        try:
            status = self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise SystemExit("city-server did not stop within 30 s of SIGTERM")
        self.reader.join(timeout=5)
        if status != 0:
            raise SystemExit(f"city-server exited with {status} on SIGTERM")
        stopping = "".join(self.log[log_before:])
        if "error" in stopping or "CancellationError" in stopping:
            raise SystemExit(f"city-server logged an error on a clean SIGTERM:\n{stopping}")
