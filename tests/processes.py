"""Driving a real CLI process from a test: Ctrl-C, as a user presses it."""

import signal
import subprocess


def interrupt(proc, tries=30):
    """Ctrl-C ``proc`` until it ends (a loaded machine may still be starting it, where an
    interrupt can be lost inside an import), as a user would press it again; then ``(stdout,
    stderr)``.  The process is killed if it outlives ``tries`` presses, 2 s apart."""
    try:
        for _ in range(tries):
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=2)
                break
            except subprocess.TimeoutExpired:
                pass
        return proc.communicate(timeout=5)
    finally:
        proc.kill()
