#!/usr/bin/env python3
"""Runs a command in a pseudo-terminal and relays it over plain pipes (test/support/pty.ts).

    python3 pty-bridge.py COLS ROWS COMMAND [ARGS...]

Our stdin is written to the terminal as typed keys; everything the command prints on the
terminal (stdout and stderr alike) comes out on our stdout, raw. We exit with the command's
exit code (128 + N when a signal N ended it). When our stdin closes (the test is gone) or we
get SIGTERM/SIGHUP, the command's whole process group is killed: nothing outlives the test.
Standard library only (node-pty is not a dependency).
"""

import errno
import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios


def main() -> int:
    cols, rows, argv = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    pid, master = pty.fork()
    if pid == 0:
        # The child: a new session whose controlling terminal is the pty (pty.fork did that).
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        try:
            os.execvp(argv[0], argv)
        except OSError as error:
            os.write(2, f"pty-bridge: cannot run {argv[0]}: {error}\n".encode())
        os._exit(127)

    def kill_child(*_args: object) -> None:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
        os._exit(137)

    signal.signal(signal.SIGTERM, kill_child)
    signal.signal(signal.SIGHUP, kill_child)

    stdin = sys.stdin.fileno()
    sources = [master, stdin]
    status = None
    while master in sources:
        # Once the command has exited, only drain what it left: a stray grandchild holding the
        # terminal open must not keep us waiting.
        readable, _, _ = select.select(sources, [], [], 0.1 if status is None else 0.2)
        if not readable and status is not None:
            break
        if stdin in readable:
            keys = os.read(stdin, 4096)
            if not keys:
                kill_child()
            os.write(master, keys)
        if master in readable:
            try:
                data = os.read(master, 65536)
            except OSError as error:
                # EIO: every process holding the terminal's other end has closed it.
                if error.errno != errno.EIO:
                    raise
                data = b""
            if data:
                os.write(sys.stdout.fileno(), data)
            else:
                sources.remove(master)
        if status is None:
            done, code = os.waitpid(pid, os.WNOHANG)
            if done:
                status = code
                if stdin in sources:
                    sources.remove(stdin)
    if status is None:
        _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


if __name__ == "__main__":
    sys.exit(main())
