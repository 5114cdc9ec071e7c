"""The kernel model's cost, said before it trains (``perceptrons.cli._kernel_cost``)."""

import numpy as np
import pytest

from perceptrons import KernelPerceptron
from perceptrons.cli import _kernel_cost


@pytest.mark.parametrize("n, cache_mb", [(50, 200), (3000, 1)])
def test_the_cost_of_an_epoch(n, cache_mb):
    X = np.random.default_rng(0).normal(size=(n, 5))
    cost = _kernel_cost.kernel_cost(KernelPerceptron(kernel="rbf", cache_size=cache_mb), X)
    assert cost.rows == n and cost.evaluations == n * n
    # the cache holds at most the whole matrix, at most cache_size MB
    assert cost.cache_bytes == min(cache_mb * 2**20, n * n * 8)
    assert 0 < cost.seconds < 60  # a few million evaluations of 5 features: far below a minute
    assert f"{n:,}² = " in _kernel_cost.cost_line(cost)
    assert _kernel_cost.slow_warning(cost) is None
    slow = cost._replace(seconds=2 * _kernel_cost.SLOW_EPOCH)
    assert "an epoch may take up to 2.0 min" in _kernel_cost.slow_warning(slow)


def test_train_states_the_cost_and_warns_past_a_minute(run_cli, tmp_path, monkeypatch):
    data = tmp_path / "d.csv"
    rng = np.random.default_rng(1)
    X = rng.normal(size=(80, 3))
    rows = "".join(f"{a:.4f},{b:.4f},{c:.4f},{int(a * b > 0)}\n" for a, b, c in X)
    data.write_text("a,b,c,label\n" + rows)
    code, out, err = run_cli(["train", str(data), "-o", str(tmp_path / "k.npz"), "--model", "kernel"])
    assert code == 0 and err == "", err  # not a terminal, and a fraction of a second: nothing said
    line = next(line for line in out.splitlines() if line.startswith("kernel "))
    computed = int(line.split()[1].replace(",", ""))
    assert 0 < computed <= 80 and "80² = 6.4e+03 kernel evaluations" in line
    monkeypatch.setattr(_kernel_cost, "SLOW_EPOCH", 0.0)
    code, out, err = run_cli(["train", str(data), "-o", str(tmp_path / "k.npz"), "--model", "kernel"])
    assert code == 0 and err.startswith("warning: --model kernel on 80 rows: an epoch may take up to"), err
