"""Starts city-server for the tests in browser/ and live/: on a free port, waiting for the
line that names its address; stops it with SIGTERM (a graceful shutdown: exit status 0)."""
import re, subprocess


class ServerProcess:
    def __init__(self, binary, index, *arguments):
        self.process = subprocess.Popen([binary, "--index", index, "--port", "0", *arguments],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.port = None
        while self.port is None:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit(f"city-server exited with {self.process.wait()} before listening")
            found = re.search(r"at http://127\.0\.0\.1:(\d+)/", line)
            self.port = int(found.group(1)) if found else None
        self.base = f"http://127.0.0.1:{self.port}/"

    def stop(self):
        """SIGTERM, then the exit status must be 0 within 30 s."""
        self.process.terminate()
        try:
            status = self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise SystemExit("city-server did not stop within 30 s of SIGTERM")
        if status != 0:
            raise SystemExit(f"city-server exited with {status} on SIGTERM")
