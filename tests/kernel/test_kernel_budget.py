"""The budget kernel perceptron: bounded support, oracle runs, predictions from kept examples only."""

import numpy as np
import pytest
import reference as ref
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics.pairwise import rbf_kernel

from perceptrons import KernelPerceptron
from perceptrons._core.errors import PerceptronsError

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")


def _noisy(n, n_classes, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = rng.integers(0, n_classes, size=n)
    y[:n_classes] = np.arange(n_classes)
    return X, y


@pytest.mark.parametrize("policy", ["random", "oldest", "bpa", "forgetron"])
@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_budget_run_matches_oracle(policy, n_classes, fit_intercept):
    X, y = _noisy(40, n_classes, seed=21)
    epochs, budget, seed = 5, 7, 3
    # cyclic order draws exactly one vector of uniforms per epoch, for the random drops
    rng = np.random.default_rng(seed)
    uniforms = [rng.random(40).tolist() for _ in range(epochs)]
    want = ref.dual_perceptron(
        X.tolist(),
        y.tolist(),
        n_classes,
        lambda a, b: ref.kernel_rbf(a, b, 0.5),
        fit_intercept=fit_intercept,
        max_epochs=epochs,
        margin=0.2,
        budget=budget,
        policy=policy,
        uniforms=uniforms,
    )
    clf = KernelPerceptron(
        gamma=0.5,
        max_epochs=epochs,
        margin=0.2,
        budget=budget,
        budget_policy=policy,
        fit_intercept=fit_intercept,
        random_state=seed,
    ).fit(X, y)
    assert clf.alpha_.tolist() == want["alpha"]
    assert clf.support_.tolist() == want["support"]
    coef = np.array([want["A"][j] for j in want["support"]]).T
    np.testing.assert_allclose(clf.dual_coef_, coef, atol=1e-12)
    np.testing.assert_allclose(clf.intercept_, want["b"] if fit_intercept else 0.0, atol=1e-9)
    assert clf.n_removed_ > 0


@pytest.mark.parametrize("policy", ["projectron", "projectron++"])
@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("eta", [0.0, 0.3])
def test_projectron_run_matches_oracle(policy, n_classes, fit_intercept, eta):
    """Every update of the compiled loop (kept, projected, Projectron++'s margin steps) against
    the oracle, which solves K_S⁻¹ k afresh where the loop grows an inverse: the same updates,
    coefficients to rounding."""
    X, y = _noisy(40, n_classes, seed=22)
    kw = dict(max_epochs=4, margin=0.2, budget=6, fit_intercept=fit_intercept)
    want = ref.dual_perceptron(
        X.tolist(), y.tolist(), n_classes, lambda a, b: ref.kernel_rbf(a, b, 0.5), policy=policy, eta=eta, **kw
    )
    clf = KernelPerceptron(gamma=0.5, budget_policy=policy, projection_tolerance=eta, **kw).fit(X, y)
    assert clf.mistakes_per_epoch_ == want["mistakes_per_epoch"]
    assert clf.alpha_.tolist() == want["alpha"]
    assert clf.support_.tolist() == want["support"]
    coef = np.array([want["A"][j] for j in want["support"]]).T
    np.testing.assert_allclose(clf.dual_coef_, coef, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(clf.intercept_, want["b"] if fit_intercept else 0.0, rtol=1e-9, atol=1e-9)
    assert clf.n_removed_ == 0
    assert clf.support_.shape[0] == 6  # the budget fills, then updates are projected


def test_projectron_keeps_fewer_examples_with_a_larger_tolerance():
    """η is the squared distance below which a new example is projected rather than kept: the
    support shrinks as it grows, and with η = 0 every mistake is kept until the budget is full."""
    X, y = _noisy(200, 2, seed=5)
    sizes = [
        KernelPerceptron(gamma=2.0, budget=200, budget_policy="projectron", projection_tolerance=eta, max_epochs=3)
        .fit(X, y)
        .support_.shape[0]
        for eta in (0.0, 0.1, 0.5)
    ]
    assert sizes[0] > sizes[1] > sizes[2]


@pytest.mark.parametrize("policy", ["projectron", "projectron++"])
def test_projectron_stream_of_batches_continues_the_span(policy):
    """partial_fit rebuilds K_S⁻¹ from the kept examples at each call: a stream of batches
    makes the mistakes of one cyclic epoch over the stream, the coefficients to rounding."""
    X, y = _noisy(90, 2, seed=8)
    kw = dict(gamma=0.5, budget=9, budget_policy=policy)
    one = KernelPerceptron(max_epochs=1, **kw).fit(X, y)
    clf = KernelPerceptron(**kw)
    for lo in range(0, 90, 30):
        clf.partial_fit(X[lo : lo + 30], y[lo : lo + 30], classes=[0, 1])
    assert sum(clf.mistakes_per_epoch_) == one.mistakes_per_epoch_[0]
    assert clf.support_.tolist() == one.support_.tolist()
    np.testing.assert_allclose(clf.dual_coef_, one.dual_coef_, rtol=1e-9, atol=1e-9)


def test_projection_tolerance_belongs_to_the_projectrons():
    X, y = _noisy(20, 2, seed=1)
    for kw in ({"budget": 5, "budget_policy": "bpa"}, {"budget_policy": "projectron"}):
        with pytest.raises(PerceptronsError, match="projection_tolerance=0.2 is the projectron's"):
            KernelPerceptron(projection_tolerance=0.2, **kw).fit(X, y)
    with pytest.raises(PerceptronsError, match="projection_tolerance"):
        KernelPerceptron(budget=5, budget_policy="projectron", projection_tolerance=-1.0).fit(X, y)


@settings(max_examples=30, deadline=None)
@given(
    st.integers(1, 15),
    st.integers(0, 1000),
    st.sampled_from(["random", "oldest", "bpa", "forgetron", "projectron", "projectron++"]),
    st.booleans(),
)
def test_support_never_exceeds_budget(budget, seed, policy, averaged):
    X, y = _noisy(60, 3, seed)
    clf = KernelPerceptron(
        gamma=1.0, budget=budget, budget_policy=policy, averaged=averaged, max_epochs=8, random_state=seed
    ).fit(X, y)
    assert max(clf.support_size_per_epoch_) <= budget
    assert clf.support_.shape[0] <= budget
    assert clf.support_vectors_.shape[0] == clf.support_.shape[0] == clf.dual_coef_.shape[1]


def test_predictions_use_only_the_kept_examples():
    X, y = _noisy(200, 2, seed=5)
    clf = KernelPerceptron(gamma=1.0, budget=25, max_epochs=5, random_state=0).fit(X, y)
    assert clf.support_.shape[0] == 25
    X_test = np.random.default_rng(1).normal(size=(30, 2))
    kept = rbf_kernel(X_test, X[clf.support_], gamma=1.0) @ clf.dual_coef_.ravel() + clf.intercept_[0]
    np.testing.assert_allclose(clf.decision_function(X_test), kept, atol=1e-12)
    # the same model refitted on data whose dropped examples are moved far away predicts the same:
    # nothing but the kept examples (and their coefficients) enters a prediction
    clone = KernelPerceptron(gamma=1.0).fit(X, y)
    clone.support_vectors_ = X[clf.support_]
    clone.dual_coef_, clone.intercept_, clone.support_ = clf.dual_coef_, clf.intercept_, clf.support_
    np.testing.assert_allclose(clone.decision_function(X_test), clf.decision_function(X_test), atol=1e-12)


@pytest.mark.parametrize("averaged", [False, True])
def test_budget_larger_than_support_changes_nothing(averaged):
    # averaged given explicitly: its default "auto" averages only without a budget
    X, y = _noisy(50, 3, seed=8)
    # and the margin too: its "auto" is 1 without a budget and 0 with one
    free = KernelPerceptron(gamma=0.5, max_epochs=4, averaged=averaged, margin=1.0).fit(X, y)
    roomy = KernelPerceptron(gamma=0.5, max_epochs=4, averaged=averaged, margin=1.0, budget=50).fit(X, y)
    assert roomy.n_removed_ == 0
    assert roomy.alpha_.tolist() == free.alpha_.tolist()
    np.testing.assert_allclose(roomy.dual_coef_, free.dual_coef_, atol=1e-12)


@pytest.mark.parametrize("policy", ["projectron", "projectron++"])
def test_a_projectron_with_a_small_cache_keeps_every_kept_row(policy):
    """A projected update reads all the kept examples' rows at once: a cache of fewer rows would
    evict one for another for ever, so it holds budget + 2 of them whatever cache_size says."""
    X, y = _noisy(150, 3, seed=2)
    kw = dict(gamma=0.5, max_epochs=4, budget=20, budget_policy=policy)
    full = KernelPerceptron(**kw).fit(X, y)
    small = KernelPerceptron(cache_size=0.01, **kw).fit(X, y)  # 8 rows of 150 asked for
    assert small.n_kernel_rows_ > 150
    assert small.alpha_.tolist() == full.alpha_.tolist()
    np.testing.assert_allclose(small.dual_coef_, full.dual_coef_, atol=1e-9)


def test_a_projectron_survives_a_model_file(tmp_path):
    """K_S⁻¹ is rebuilt from the kept examples: a partial_fit after a save and load continues
    as the model never saved does, to rounding."""
    from perceptrons import load_model, save_model

    X, y = _noisy(120, 2, seed=9)
    kw = dict(gamma=0.5, budget=10, budget_policy="projectron++", projection_tolerance=0.05)
    kept, saved = KernelPerceptron(**kw), KernelPerceptron(**kw)
    for clf in (kept, saved):
        clf.partial_fit(X[:60], y[:60], classes=[0, 1])
    save_model(saved, tmp_path / "p.npz")
    loaded = load_model(tmp_path / "p.npz")
    for clf in (kept, loaded):
        clf.partial_fit(X[60:], y[60:])
    assert loaded.mistakes_per_epoch_ == kept.mistakes_per_epoch_
    assert loaded.support_.tolist() == kept.support_.tolist()
    np.testing.assert_allclose(loaded.dual_coef_, kept.dual_coef_, rtol=1e-9, atol=1e-9)


def test_budget_with_small_cache_matches_full_matrix():
    X, y = _noisy(150, 3, seed=2)
    kw = dict(gamma=0.5, max_epochs=4, budget=20, random_state=4)
    full = KernelPerceptron(**kw).fit(X, y)
    small = KernelPerceptron(cache_size=0.01, **kw).fit(X, y)  # 8 rows of 150
    assert small.n_kernel_rows_ > 150
    assert small.alpha_.tolist() == full.alpha_.tolist()
    np.testing.assert_allclose(small.dual_coef_, full.dual_coef_, atol=1e-9)


# ----------------------------------------------------------------------------- streams
@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"averaged": True, "margin": 0.5},
        {"budget": 6, "budget_policy": "oldest"},
        {"budget": 6, "budget_policy": "random", "averaged": True},
    ],
)
@pytest.mark.parametrize("n_classes", [2, 3])
def test_stream_of_batches_is_one_epoch_over_the_stream(kw, n_classes):
    X, y = _noisy(90, n_classes, seed=31)
    X_test = np.random.default_rng(2).normal(size=(25, 2))
    whole = KernelPerceptron(gamma=0.8, max_epochs=1, random_state=5, **kw).fit(X, y)
    stream = KernelPerceptron(gamma=0.8, random_state=5, **kw)
    for lo, hi in ((0, 17), (17, 50), (50, 90)):
        stream.partial_fit(X[lo:hi], y[lo:hi], classes=np.arange(n_classes))
        if "budget" in kw:
            assert stream.support_.shape[0] <= kw["budget"]
    assert stream.support_.tolist() == whole.support_.tolist()
    assert stream.n_updates_ == whole.n_updates_
    np.testing.assert_allclose(stream.dual_coef_, whole.dual_coef_, atol=1e-10)
    np.testing.assert_allclose(stream.intercept_, whole.intercept_, atol=1e-10)
    np.testing.assert_allclose(stream.decision_function(X_test), whole.decision_function(X_test), atol=1e-9)
    assert len(stream.support_size_per_epoch_) == 3


def test_voted_stream_predicts_like_one_epoch():
    X, y = _noisy(60, 3, seed=4)
    X_test = np.random.default_rng(3).normal(size=(30, 2))
    whole = KernelPerceptron(gamma=0.8, max_epochs=1, voted=True).fit(X, y)
    stream = KernelPerceptron(gamma=0.8, voted=True)
    for lo in range(0, 60, 20):
        stream.partial_fit(X[lo : lo + 20], y[lo : lo + 20], classes=[0, 1, 2])
    np.testing.assert_allclose(stream.decision_function(X_test), whole.decision_function(X_test), atol=1e-12)


def test_stream_memory_stays_within_budget_and_survives_a_model_file(tmp_path):
    from perceptrons import load_model, save_model

    X, y = _noisy(400, 2, seed=9)
    clf = KernelPerceptron(gamma=1.0, budget=15, random_state=0)
    for lo in range(0, 200, 40):
        clf.partial_fit(X[lo : lo + 40], y[lo : lo + 40], classes=[0, 1])
        assert clf.support_vectors_.shape[0] <= 15
    save_model(clf, tmp_path / "s.model")
    back = load_model(tmp_path / "s.model")
    for lo in range(200, 400, 40):
        clf.partial_fit(X[lo : lo + 40], y[lo : lo + 40])
        back.partial_fit(X[lo : lo + 40], y[lo : lo + 40])
    assert max(clf.support_size_per_epoch_) <= 15
    np.testing.assert_array_equal(back.support_, clf.support_)
    np.testing.assert_allclose(back.dual_coef_, clf.dual_coef_, atol=1e-12)


def test_partial_fit_needs_classes_first_and_the_same_classes_later():
    X, y = _noisy(20, 2, seed=1)
    clf = KernelPerceptron()
    with pytest.raises(PerceptronsError, match="classes must be passed on the first call"):
        clf.partial_fit(X, y)
    clf.partial_fit(X, y, classes=[0, 1])
    with pytest.raises(PerceptronsError, match=r"classes \[0, 1, 2\] differ"):
        clf.partial_fit(X, y, classes=[0, 1, 2])


def test_precomputed_has_no_partial_fit():
    clf = KernelPerceptron(kernel="precomputed")
    assert not hasattr(clf, "partial_fit")
    with pytest.raises(AttributeError, match="has no attribute 'partial_fit'"):
        clf.partial_fit(np.eye(3), [0, 1, 0], classes=[0, 1])
