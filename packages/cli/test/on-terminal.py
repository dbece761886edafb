"""Runs a command with its stderr (and stdout) on a pseudo-terminal, as on a person's terminal.

Usage: python3 on-terminal.py MODE -- COMMAND...
  MODE "tty":   stdin, stdout and stderr are the terminal.
  MODE "pipe":  stdin is this script's stdin (a pipe), stdout and stderr the terminal.
Env PTY_ANSWER: text typed on the terminal after the first prompt ending in ": " appears.
Env PTY_SECONDS: how long the command may run (default 60); it is killed after that.
Prints everything the terminal showed, then exits with the command's exit code.
"""

import os
import pty
import select
import subprocess
import sys
import time

mode = sys.argv[1]
command = sys.argv[sys.argv.index("--") + 1 :]
master, slave = pty.openpty()
child = subprocess.Popen(
    command,
    stdin=slave if mode == "tty" else None,
    stdout=slave,
    stderr=slave,
    close_fds=True,
)
os.close(slave)
answer = os.environ.get("PTY_ANSWER")
shown = b""
deadline = time.monotonic() + float(os.environ.get("PTY_SECONDS", "60"))
while time.monotonic() < deadline:
    ready, _, _ = select.select([master], [], [], 0.1)
    if ready:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
        if answer is not None and shown.rstrip().endswith(b":"):
            time.sleep(0.2)
            os.write(master, answer.encode() + b"\r")
            answer = None
    elif child.poll() is not None:
        break
else:
    child.kill()
code = child.wait()
sys.stdout.write(shown.decode("utf-8", "replace"))
sys.exit(code)
