"""A failed run loses nothing.

Every refusal: exit status 2, exactly one line on stderr starting "error:" and naming the file
or option, no traceback, no file changed and no temporary file left.  Signals and pipes are
tested on real processes; everything else in-process through the real entry point.
"""

import errno
import os
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np
import pytest

from perceptrons import Perceptron, save_model

PERCEPTRONS = [sys.executable, "-m", "perceptrons"]
DATA = "a,b,label\n1,2,0\n2,1,1\n0,3,0\n3,0,1\n"


def run(*args, **kwargs):
    """A real process: (exit status, stdout, stderr)."""
    done = subprocess.run([*PERCEPTRONS, *map(str, args)], capture_output=True, text=True, timeout=300, **kwargs)
    return done.returncode, done.stdout, done.stderr


def snapshot(directory):
    """Every entry of ``directory`` (hidden ones too): kind, mode, inode, mtime and contents."""
    out = {}
    for entry in os.scandir(directory):
        st = entry.stat(follow_symlinks=False)
        body = None
        if entry.is_symlink():
            body = os.readlink(entry.path)
        elif entry.is_file(follow_symlinks=False):
            with open(entry.path, "rb") as f:
                body = f.read()
        out[entry.name] = (st.st_mode, st.st_ino, st.st_mtime_ns, st.st_rdev, body)
    return out


def temp_files(directory):
    return [n for n in os.listdir(directory) if n.startswith(".tmp-")]


def assert_refused(result, directory, before, *fragments):
    code, out, err = result
    assert code == 2, (code, out, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("error:") and "Traceback" not in err, err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    assert snapshot(directory) == before, "a file changed or a temporary file was left"


@pytest.fixture
def work(tmp_path):
    """d.csv (2 features + label) and m.npz, a model trained on it."""
    (tmp_path / "d.csv").write_text(DATA)
    X = np.array([[1.0, 2], [2, 1], [0, 3], [3, 0]])
    save_model(Perceptron().fit(X, [0, 1, 0, 1]), tmp_path / "m.npz", info={"label_column": "label"})
    return tmp_path


# ----------------------------------------------------------------------------- an input as the output
@pytest.mark.parametrize("how", ["same name", "output is a symlink", "input is a symlink", "hard link"])
def test_train_refuses_to_write_over_its_data(run_cli, work, how):
    data, output = work / "d.csv", work / "d.csv"
    if how == "output is a symlink":
        output = work / "link.csv"
        output.symlink_to("d.csv")
    elif how == "input is a symlink":
        data = work / "link.csv"
        data.symlink_to("d.csv")
    elif how == "hard link":
        output = work / "hard.csv"
        os.link(work / "d.csv", output)
    before = snapshot(work)
    assert_refused(
        run_cli(["train", str(data), "-o", str(output)]), work, before, "-o", output.name, "is the same file as DATA"
    )


@pytest.mark.parametrize("target,name", [("m.npz", "MODEL"), ("d.csv", "DATA"), ("link.npz", "MODEL")])
def test_predict_refuses_to_write_over_an_input(run_cli, work, target, name):
    (work / "link.npz").symlink_to("m.npz")
    before = snapshot(work)
    assert_refused(
        run_cli(["predict", str(work / "m.npz"), str(work / "d.csv"), "-o", str(work / target)]),
        work,
        before,
        target,
        f"is the same file as {name}",
    )


def test_train_refuses_to_write_over_the_file_on_standard_input(work):
    before = snapshot(work)
    with open(work / "d.csv") as stdin:
        result = run("train", "-", "--format", "csv", "-o", work / "d.csv", stdin=stdin)
    assert_refused(result, work, before, "d.csv", "is the same file as DATA (standard input)")


# ----------------------------------------------------------------------------- the output's place
@pytest.mark.parametrize("command", ["train", "predict"])
def test_output_directory_missing(run_cli, work, command):
    before = snapshot(work)
    args = (
        ["train", str(work / "d.csv")] if command == "train" else ["predict", str(work / "m.npz"), str(work / "d.csv")]
    )
    assert_refused(run_cli([*args, "-o", str(work / "nope" / "out")]), work, before, "-o", "does not exist")


@pytest.mark.parametrize("what", ["directory", "file"])
def test_output_not_writable(run_cli, work, monkeypatch, what):
    # root may write anywhere, so os.access says no where a user's permissions would
    real = os.access
    target = str(work) if what == "directory" else str(work / "out.npz")
    (work / "out.npz").write_bytes(b"keep")

    def access(path, mode, **kwargs):
        if mode & os.W_OK and os.path.realpath(path) == target:
            return False
        return real(path, mode, **kwargs)

    monkeypatch.setattr(os, "access", access)
    before = snapshot(work)
    assert_refused(
        run_cli(["train", str(work / "d.csv"), "-o", str(work / "out.npz")]),
        work,
        before,
        "-o",
        "out.npz",
        "cannot create a file in" if what == "directory" else "read-only",
    )


def test_output_dash_refused_for_a_model(run_cli, work, monkeypatch):
    monkeypatch.chdir(work)
    before = snapshot(work)
    assert_refused(run_cli(["train", "d.csv", "-o", "-"]), work, before, "-o", "standard output")


# ----------------------------------------------------------------------------- --test before training
@pytest.mark.parametrize(
    "case,fragments",
    [
        ("missing", ["--test", "absent.csv", "no such file"]),
        ("narrow", ["--test", "narrow.csv", "no column 'b', which the training data has"]),
        ("unlabelled", ["--test", "features.csv", "no label column"]),
        ("directory", ["--test", "adir"]),
    ],
)
def test_bad_test_file_leaves_the_model_alone(run_cli, work, case, fragments):
    (work / "narrow.csv").write_text("a,label\n1,0\n3,1\n")
    (work / "features.csv").write_text("a,b\n1,2\n2,1\n")
    (work / "adir").mkdir()
    name = {"missing": "absent.csv", "narrow": "narrow.csv", "unlabelled": "features.csv", "directory": "adir"}[case]
    before = snapshot(work)
    assert_refused(
        run_cli(["train", str(work / "d.csv"), "-o", str(work / "m.npz"), "--test", str(work / name)]),
        work,
        before,
        *fragments,
    )


def test_good_test_file_still_reports_accuracy(run_cli, work):
    code, out, err = run_cli(["train", str(work / "d.csv"), "-o", str(work / "m2.npz"), "--test", str(work / "d.csv")])
    assert code == 0, err
    assert "test acc   1.0000" in out


# ----------------------------------------------------------------------------- standard input and output
@pytest.mark.slow
def test_dash_reads_standard_input(work):
    code, out, err = run("train", "-", "--format", "csv", "-o", work / "s.npz", input=DATA)
    assert code == 0, err
    code, out, err = run("predict", work / "s.npz", "-", "--format", "csv", input=DATA)
    assert code == 0, err
    assert out.split() == ["0", "1", "0", "1"]
    code, out, err = run("evaluate", work / "s.npz", "-", "--format", "csv", input=DATA)
    assert code == 0 and "accuracy  1.0000" in out, err


def test_dash_needs_format(work):
    before = snapshot(work)
    assert_refused(run("predict", work / "m.npz", "-", input=DATA), work, before, "-:", "--format")


@pytest.mark.slow
def test_standard_input_errors_name_it(work):
    code, out, err = run("predict", work / "m.npz", "-", "--format", "csv", input="a,b,label\n1,x,0\n")
    assert code == 2 and err.startswith("error: standard input, line 2") and err.count("\n") == 1, err


def test_standard_input_read_once(run_cli, work):
    before = snapshot(work)
    assert_refused(
        run_cli(["train", "-", "--format", "csv", "-o", str(work / "x.npz"), "--test", "-"]),
        work,
        before,
        "--test",
        "standard input can be read only once",
    )


def test_dash_o_writes_standard_output(run_cli, work, monkeypatch):
    monkeypatch.chdir(work)
    before = snapshot(work)
    code, out, err = run_cli(["predict", "m.npz", "d.csv", "-o", "-"])
    assert code == 0, err
    assert out.split() == ["0", "1", "0", "1"] and err == ""
    assert snapshot(work) == before  # no file named "-"


def test_dev_stdout_is_standard_output(work):
    code, out, err = run("predict", work / "m.npz", work / "d.csv", "-o", "/dev/stdout")
    assert code == 0, err
    assert out.split() == ["0", "1", "0", "1"]


@pytest.fixture
def big(work):
    """300 000 rows to predict: 600 kB of labels, far more than a pipe holds."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((300_000, 2))
    np.savez(work / "big.npz", X=X, y=(X[:, 0] > 0).astype(int))
    return work / "big.npz"


@pytest.mark.slow
@pytest.mark.parametrize("extra", [[], ["-o", "-"]])
def test_closed_pipe_ends_quietly(work, big, extra):
    producer = subprocess.Popen(
        [*PERCEPTRONS, "predict", str(work / "m.npz"), str(big), *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    head = subprocess.run(["head", "-1"], stdin=producer.stdout, capture_output=True, timeout=300)
    producer.stdout.close()  # only head holds the pipe's read end: when it exits, the pipe closes
    err = producer.stderr.read().decode()
    producer.stderr.close()
    assert producer.wait(timeout=300) == 141  # 128 + SIGPIPE, as cat or seq under pipefail
    assert head.stdout.decode().strip() in ("0", "1")
    assert err == "", err


# ----------------------------------------------------------------------------- special files
def _mknod(path, kind, major, minor):
    try:
        os.mknod(path, kind | 0o666, os.makedev(major, minor))
    except (PermissionError, OSError) as exc:
        if os.geteuid() == 0:  # CI runs as root: there the test must run, not skip
            pytest.fail(f"cannot create a device node as root: {exc}")
        pytest.skip(f"cannot create a device node without root: {exc}")


def test_fifo_is_written_into(run_cli, work):
    fifo = work / "fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()), daemon=True)
    reader.start()
    code, out, err = run_cli(["predict", str(work / "m.npz"), str(work / "d.csv"), "-o", str(fifo)])
    reader.join(timeout=60)
    assert code == 0, err
    assert got == ["0\n1\n0\n1\n"]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and not temp_files(work)


def test_character_device_is_written_into(run_cli, work):
    # a node of our own with /dev/null's numbers: a regression must not replace the real one
    null = work / "null"
    _mknod(null, stat.S_IFCHR, 1, 3)
    before = snapshot(work)
    code, out, err = run_cli(["predict", str(work / "m.npz"), str(work / "d.csv"), "-o", str(null)])
    assert code == 0, err
    assert snapshot(work) == before


def test_model_to_a_character_device(run_cli, work):
    null = work / "null"
    _mknod(null, stat.S_IFCHR, 1, 3)
    before = snapshot(work)
    code, out, err = run_cli(["train", str(work / "d.csv"), "-o", str(null)])
    assert code == 0, err
    assert snapshot(work) == before


@pytest.mark.parametrize("command", ["train", "predict"])
def test_block_device_refused(run_cli, work, command):
    disk = work / "disk"
    _mknod(disk, stat.S_IFBLK, 7, 250)  # never opened: refused by its kind
    before = snapshot(work)
    args = (
        ["train", str(work / "d.csv")] if command == "train" else ["predict", str(work / "m.npz"), str(work / "d.csv")]
    )
    assert_refused(run_cli([*args, "-o", str(disk)]), work, before, "-o", "disk", "block device")


def test_socket_refused(run_cli):
    # a short directory: a socket's path must fit in 108 bytes
    directory = tempfile.mkdtemp(prefix="ps-")
    try:
        with open(os.path.join(directory, "d.csv"), "w") as f:
            f.write(DATA)
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(os.path.join(directory, "sock"))
        before = snapshot(directory)
        assert_refused(
            run_cli(["train", os.path.join(directory, "d.csv"), "-o", os.path.join(directory, "sock")]),
            directory,
            before,
            "-o",
            "sock",
            "is a socket",
        )
        sock.close()
    finally:
        for name in os.listdir(directory):
            os.unlink(os.path.join(directory, name))
        os.rmdir(directory)


# ----------------------------------------------------------------------------- modes
@pytest.fixture
def umask_027():
    old = os.umask(0o027)
    yield
    os.umask(old)


def test_modes_of_predictions(run_cli, work, umask_027):
    out = work / "p.txt"
    assert run_cli(["predict", str(work / "m.npz"), str(work / "d.csv"), "-o", str(out)])[0] == 0
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o640  # 0666 & ~027
    os.chmod(out, 0o604)
    assert run_cli(["predict", str(work / "m.npz"), str(work / "d.csv"), "-o", str(out)])[0] == 0
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o604


def test_modes_of_models(run_cli, work, umask_027):
    out = work / "new.npz"
    assert run_cli(["train", str(work / "d.csv"), "-o", str(out)])[0] == 0
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o640
    os.chmod(out, 0o604)
    assert run_cli(["train", str(work / "d.csv"), "-o", str(out)])[0] == 0
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o604


def test_symlinked_output_replaces_its_target(run_cli, work):
    (work / "target.txt").write_text("old\n")
    (work / "out.txt").symlink_to("target.txt")
    assert run_cli(["predict", str(work / "m.npz"), str(work / "d.csv"), "-o", str(work / "out.txt")])[0] == 0
    assert os.path.islink(work / "out.txt") and (work / "target.txt").read_text() == "0\n1\n0\n1\n"


# ----------------------------------------------------------------------------- disk full
def _tmpfs(mount, size, without_root):
    """A tmpfs of ``size`` at ``mount``, when this process may mount one (root in a sandbox
    usually may); else the test is skipped, saying ``without_root``."""
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        if os.geteuid() == 0:  # CI runs as root: there the test must run, not skip
            pytest.fail(f"cannot mount a {size} tmpfs as root: {done.stderr.decode().strip()}")
        pytest.skip(f"cannot mount a tmpfs without root; {without_root}")
    return mount


@pytest.fixture
def small_disk(tmp_path):
    """A 64 kB tmpfs."""
    yield _tmpfs(tmp_path / "small", "64k", "test_fsync_failure simulates the error instead")
    subprocess.run(["umount", str(tmp_path / "small")], check=True)


@pytest.fixture
def read_only_disk(tmp_path):
    """A tmpfs of 1 MB; the test remounts it read-only when it has written what it reads."""
    mount = _tmpfs(tmp_path / "ro", "1m", "a read-only file system cannot be made")
    yield mount, lambda: subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
    subprocess.run(["umount", str(mount)], check=True)


def test_a_valid_epoch_cache_is_read_from_a_read_only_file_system(run_cli, work, read_only_disk):
    """A valid cache is only read, so its file system may be read-only (it was refused as "the
    file is read-only"); a stale one there is refused, naming why it is stale, and left as it is."""
    disk, make_read_only = read_only_disk
    rows = "".join(f"{i % 7},{i % 5},{int(i % 7 > i % 5)}\n" for i in range(300))
    (disk / "d.csv").write_text("a,b,label\n" + rows)
    first, again = work / "first.npz", work / "again.npz"
    code, _, err = run_cli(["train", str(disk / "d.csv"), "--stream", "--cache", str(disk / "d.cache"), "-o", first])
    assert code == 0, err
    make_read_only()
    before = snapshot(disk)
    code, _, err = run_cli(["train", str(disk / "d.csv"), "--stream", "--cache", str(disk / "d.cache"), "-o", again])
    assert code == 0, err
    assert again.read_bytes() == first.read_bytes()
    other = ["--hash-bits", "4"]  # other options: the cache is stale
    assert_refused(
        run_cli(["train", str(disk / "d.csv"), "--stream", "--cache", str(disk / "d.cache"), *other, "-o", again]),
        disk,
        before,
        "d.cache: the epoch cache cannot be used: stale",
        "it is read-only, so it is not replaced",
    )
    assert_refused(  # no cache yet: nothing could be written there
        run_cli(["train", str(disk / "d.csv"), "--stream", "--cache", str(disk / "new.cache"), "-o", again]),
        disk,
        before,
        "new.cache: cannot create a file in",
    )


def test_disk_full(run_cli, work, big, small_disk):
    (small_disk / "p.txt").write_text("keep\n")
    before = snapshot(small_disk)
    assert_refused(
        run_cli(["predict", str(work / "m.npz"), str(big), "-o", str(small_disk / "p.txt")]),
        small_disk,
        before,
        "p.txt: cannot write: No space left on device",
    )


@pytest.mark.slow
def test_disk_full_model(run_cli, work, small_disk):
    rng = np.random.default_rng(0)
    np.savez(work / "wide.npz", X=rng.standard_normal((400, 60)), y=rng.integers(0, 5, 400))  # ~0.5 MB of vectors
    (small_disk / "m.npz").write_bytes(b"old model")
    before = snapshot(small_disk)
    assert_refused(
        run_cli(
            ["train", str(work / "wide.npz"), "--model", "voted", "--epochs", "1", "-o", str(small_disk / "m.npz")]
        ),
        small_disk,
        before,
        "m.npz: cannot write: No space left on device",
    )


def test_full_device(run_cli, work):
    full = work / "full"
    _mknod(full, stat.S_IFCHR, 1, 7)  # /dev/full's numbers: every write fails with ENOSPC
    before = snapshot(work)
    assert_refused(
        run_cli(["predict", str(work / "m.npz"), str(work / "d.csv"), "-o", str(full)]),
        work,
        before,
        "full: cannot write: No space left on device",
    )


def test_fsync_failure(run_cli, work, monkeypatch):
    # where the error comes at the end (NFS, quotas, delayed allocation), and where no tmpfs can
    # be mounted: os.fsync is made to fail as a full disk makes it
    def fsync(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    (work / "p.txt").write_text("keep\n")
    monkeypatch.setattr(os, "fsync", fsync)
    before = snapshot(work)
    assert_refused(
        run_cli(["predict", str(work / "m.npz"), str(work / "d.csv"), "-o", str(work / "p.txt")]),
        work,
        before,
        "p.txt: cannot write: No space left on device",
    )


# ----------------------------------------------------------------------------- signals
WRITER = """
import os, signal, sys, time
from perceptrons.io.atomic import atomic_output
with atomic_output(sys.argv[1]) as f:
    f.write("new")
    os.kill(os.getpid(), int(sys.argv[2]))
    time.sleep(30)
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_signal_inside_the_writer(tmp_path, sig):
    """The signal arrives at a known point of the write: deterministic, and no CLI start-up."""
    out = tmp_path / "out.txt"
    out.write_text("old")
    done = subprocess.run([sys.executable, "-c", WRITER, str(out), str(int(sig))], capture_output=True, timeout=60)
    assert done.returncode == -sig, done.stderr  # ended by the signal itself, after cleaning up
    assert out.read_text() == "old" and not temp_files(tmp_path)


def test_ignored_hangup_stays_ignored(tmp_path):
    out = tmp_path / "out.txt"
    code = "import signal; signal.signal(signal.SIGHUP, signal.SIG_IGN)\n" + WRITER.replace("time.sleep(30)", "pass")
    done = subprocess.run(
        [sys.executable, "-c", code, str(out), str(int(signal.SIGHUP))], capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr  # as under nohup
    assert out.read_text() == "new"


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_signal_while_the_model_is_written(tmp_path, sig):
    """``timeout``/``docker stop`` while ``train`` writes its model: no temporary file is left and
    the old model survives.

    No test hook: a voted multiclass model keeps k·d floats per mistake (here about 30 MB), so
    its write takes tens of milliseconds; the test watches for the temporary file and signals
    as soon as it appears.  A signal that lands after the rename (the new model is then whole)
    does not count, and the run is repeated, up to four times.
    """
    rng = np.random.default_rng(0)
    data = tmp_path / "data.npz"
    np.savez(data, X=rng.standard_normal((2000, 200)), y=rng.integers(0, 10, 2000))
    model = tmp_path / "m.npz"
    model.write_bytes(b"the old model")
    for _attempt in range(4):
        proc = subprocess.Popen(
            [*PERCEPTRONS, "train", str(data), "--model", "voted", "--epochs", "1", "-o", str(model)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        signalled = False
        while proc.poll() is None:
            if temp_files(tmp_path):
                proc.send_signal(sig)
                signalled = True
                break
            time.sleep(0.0005)
        err = proc.communicate(timeout=300)[1].decode()
        assert not temp_files(tmp_path), "a temporary file was left"
        assert "Traceback" not in err, err
        if model.read_bytes() != b"the old model":  # the signal came after the rename: a whole new model
            from perceptrons import load_model

            load_model(model)
            model.write_bytes(b"the old model")
            continue
        assert signalled and proc.returncode == -sig, (proc.returncode, err)
        return
    pytest.fail("the signal never arrived while the model was being written")


def test_one_large_write_to_a_closed_pipe_ends_as_a_closed_pipe(tmp_path):
    """``tag predict`` writes its whole output at once: a pipe whose reader had gone took a part
    and dropped the rest with no error, and the run exited 0."""
    words = tmp_path / "words.txt"
    words.write_text("the dog barks .\n" * 100_000)  # about 2 MB of word/TAG out, in one write
    producer = subprocess.Popen(
        [*PERCEPTRONS, "tag", "predict", "--pretrained", "en", str(words), "--format", "text"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    producer.stdout.read(100)
    producer.stdout.close()  # the reader goes, as head's does
    err = producer.stderr.read().decode()
    producer.stderr.close()
    assert producer.wait(timeout=300) == 141, err
    assert err == "", err


@pytest.mark.parametrize("command", ["predict", "evaluate"])
def test_an_output_that_cannot_encode_a_label_is_named_not_the_input(tmp_path, command):
    """With standard output in ASCII, the error blamed the data file: "d.csv: 'ascii' codec
    can't encode character '\\xe4'"."""
    data = tmp_path / "d.csv"
    data.write_text("a,b,y\n1,2,pä\n2,1,qö\n3,3,pä\n0,1,qö\n", encoding="utf-8")
    assert run("train", data, "-o", tmp_path / "m.npz")[0] == 0
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    code, _, err = run(command, tmp_path / "m.npz", data, env=env)
    assert code == 2, err
    assert err.strip().splitlines()[-1] == (
        "error: standard output: cannot write 'ä' in its encoding, ascii; expected an output that takes UTF-8 "
        "(set PYTHONIOENCODING=utf-8, or write to a file with -o)"
    )
