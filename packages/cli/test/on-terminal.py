"""Runs a command with its stderr (and stdout) on a pseudo-terminal, as on a person's terminal.

Usage: python3 on-terminal.py MODE -- COMMAND...
  MODE "tty":   stdin, stdout and stderr are the terminal.
  MODE "pipe":  stdin is this script's stdin (a pipe), stdout and stderr the terminal.
Env PTY_ANSWER: text typed on the terminal after the first prompt ending in ": " appears.
Env PTY_SECONDS: how long the command may run (default 60); it is killed after that.
Env PTY_HANGUP: once the terminal has shown this text, it goes away, as a closed terminal window
  or a dropped SSH session: the command's writes to it fail (EIO) and it gets SIGHUP.
Prints everything the terminal showed, then exits with the command's exit code.
"""

import os
import pty
import select
import signal
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
hangup = os.environ.get("PTY_HANGUP")
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
        if hangup is not None and hangup.encode() in shown:
            os.close(master)
            child.send_signal(signal.SIGHUP)
            try:
                code = child.wait(timeout=max(1.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                code = child.wait()
            sys.stdout.write(shown.decode("utf-8", "replace"))
            sys.exit(code if code >= 0 else 128 - code)
    elif child.poll() is not None:
        break
else:
    child.kill()
code = child.wait()
sys.stdout.write(shown.decode("utf-8", "replace"))
sys.exit(code)
