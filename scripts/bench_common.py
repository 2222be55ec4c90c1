"""What the benchmark scripts share: where a run's own files go, and running one timed command."""
import os, subprocess, sys, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def scratch(d, name):
    """Where a run's own files go: .build/bench-out/CASE/ of this checkout, not the data folder,
    so several checkouts can share one bench-data/ (a symbolic link) and run at once."""
    out = os.path.join(root, ".build", "bench-out", os.path.basename(os.path.normpath(d)))
    os.makedirs(out, exist_ok=True)
    return os.path.join(out, name)


def timed(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, errors=None):
    """Runs `cmd` with the one of `stdout` and `stderr` that is a pipe read to its end.
    Returns (wall seconds, what the pipe gave as text, resource usage); exits naming the command,
    its status and its messages (the pipe's text, or the file `errors` when given) when it fails."""
    t = time.time()
    p = subprocess.Popen(cmd, stdout=stdout, stderr=stderr)
    text = (p.stdout or p.stderr).read().decode()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.time() - t
    if status != 0:
        sys.exit(f"{' '.join(cmd)} failed ({status}):\n{open(errors).read() if errors else text}")
    return wall, text, ru
