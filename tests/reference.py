"""Slow, readable reference versions of every algorithm: the oracles of the numba kernels.

Written for clarity, one obvious loop each, in plain Python floats.  Each section names the
kernel it checks.  Add new oracles at the end of the file, in their own section.
"""

import math


def dot(w, x):
    return sum(wj * xj for wj, xj in zip(w, x))


# ----------------------------------------------------------------------------- PLA
def pla(X, y, *, fit_intercept=True, max_epochs=1000, margin=0.0, weights=None):
    """The Perceptron Learning Algorithm, cyclic order, binary labels y ∈ {-1, +1}.

    Returns (w, b, n_updates, mistakes_per_epoch).  A mistake is y·(w·x + b) ≤ margin.
    """
    d = len(X[0])
    w, b = [0.0] * d, 0.0
    weights = weights or [1.0] * len(X)
    n_updates, history = 0, []
    for _ in range(max_epochs):
        mistakes = 0
        for x, label, a in zip(X, y, weights):
            if a == 0:
                continue
            if label * (dot(w, x) + b) <= margin:
                mistakes += 1
                w = [wj + a * label * xj for wj, xj in zip(w, x)]
                if fit_intercept:
                    b += a * label
        n_updates += mistakes
        history.append(mistakes)
        if mistakes == 0:
            break
    return w, b, n_updates, history


def multiclass_pla(X, y, n_classes, *, fit_intercept=True, max_epochs=1000, margin=0.0, weights=None):
    """One weight vector per class, cyclic order, y ∈ {0..K-1}.

    A mistake is score[y] − max_{k≠y} score[k] ≤ margin (ties: lowest index is the runner-up);
    the update adds x to class y and subtracts it from the runner-up.
    Returns (W as K lists, b as K floats, n_updates, mistakes_per_epoch).
    """
    d = len(X[0])
    W = [[0.0] * d for _ in range(n_classes)]
    b = [0.0] * n_classes
    weights = weights or [1.0] * len(X)
    n_updates, history = 0, []
    for _ in range(max_epochs):
        mistakes = 0
        for x, k, a in zip(X, y, weights):
            if a == 0:
                continue
            scores = [dot(W[c], x) + b[c] for c in range(n_classes)]
            others = [c for c in range(n_classes) if c != k]
            r = max(others, key=lambda c: (scores[c], -c))
            if scores[k] - scores[r] <= margin:
                mistakes += 1
                W[k] = [wj + a * xj for wj, xj in zip(W[k], x)]
                W[r] = [wj - a * xj for wj, xj in zip(W[r], x)]
                if fit_intercept:
                    b[k] += a
                    b[r] -= a
        n_updates += mistakes
        history.append(mistakes)
        if mistakes == 0:
            break
    return W, b, n_updates, history


# ----------------------------------------------------------------------------- pocket, averaged, voted
def errors(w, b, X, y):
    """Training errors of (w, b) under sign(0) = +1, binary y ∈ {-1, +1}."""
    return sum(1 for x, label in zip(X, y) if (1 if dot(w, x) + b >= 0 else -1) != label)


def pocket(X, y, *, fit_intercept=True, max_epochs=100, ratchet=True):
    """Gallant's pocket algorithm, cyclic order, with the run-length rule and optional ratchet.

    A candidate is counted once its run beats the bar; counting raises the bar to its run.

    Returns (pocket w, pocket b, pocket errors after each epoch, pocket replacements).
    """
    d = len(X[0])
    w, b = [0.0] * d, 0.0
    pw, pb, perr, prun = list(w), b, errors(w, b, X, y), 0
    run, counted, history, replacements = 0, False, [], 0
    for _ in range(max_epochs):
        mistakes = 0
        for x, label in zip(X, y):
            if label * (dot(w, x) + b) <= 0:
                mistakes += 1
                w = [wj + label * xj for wj, xj in zip(w, x)]
                b += label if fit_intercept else 0.0
                run, counted = 0, False
                continue
            run += 1
            if run > prun and not counted:
                if ratchet:
                    counted = True
                    e = errors(w, b, X, y)
                    prun = run  # a counted candidate raises the bar, accepted or not
                    if e < perr:
                        pw, pb, perr = list(w), b, e
                        replacements += 1
                else:
                    pw, pb, prun = list(w), b, run
                    replacements += 1
        history.append(perr if ratchet else errors(pw, pb, X, y))
        if mistakes == 0:
            break
    return pw, pb, history, replacements


def iterates(X, y, *, fit_intercept=True, max_epochs=100):
    """Every weight vector the cyclic PLA holds after each example visited: a list of (w, b)."""
    d = len(X[0])
    w, b, out = [0.0] * d, 0.0, []
    for _ in range(max_epochs):
        mistakes = 0
        for x, label in zip(X, y):
            if label * (dot(w, x) + b) <= 0:
                mistakes += 1
                w = [wj + label * xj for wj, xj in zip(w, x)]
                b += label if fit_intercept else 0.0
            out.append((list(w), b))
        if mistakes == 0:
            break
    return out


def averaged(X, y, **kw):
    """The averaged perceptron the explicit way: the mean of all iterates."""
    its = iterates(X, y, **kw)
    d = len(X[0])
    w = [sum(v[j] for v, _ in its) / len(its) for j in range(d)]
    return w, sum(b for _, b in its) / len(its)


def voted(X, y, **kw):
    """Freund & Schapire's voted perceptron: distinct vectors with the number of visits they lasted."""
    vectors = []
    for w, b in iterates(X, y, **kw):
        if vectors and vectors[-1][0] == w and vectors[-1][1] == b:
            vectors[-1][2] += 1
        else:
            vectors.append([w, b, 1])
    return [(w, b, c) for w, b, c in vectors]


def voted_predict(vectors, X):
    return [1 if sum(c * (1 if dot(w, x) + b >= 0 else -1) for w, b, c in vectors) >= 0 else -1 for x in X]


# ----------------------------------------------------------------------------- structured perceptron
# Oracles of perceptrons._jit.structured (viterbi, greedy, train_epoch with lazy averaging).
def sequence_score(emit, trans, start, stop, path, per_position=False, trans2=None):
    """start[y0] + Σ emit[i][yi] + Σ trans[y(i-1)][yi] + stop[y(n-1)], summed left to right.

    With ``per_position`` trans[i] is the transition matrix into position i; ``trans2`` adds
    trans2[y(i-2)][y(i-1)][yi] for i ≥ 2 (second order).
    """
    score = start[path[0]] + emit[0][path[0]]
    for i in range(1, len(path)):
        if trans2 is not None and i >= 2:
            score = score + trans2[path[i - 2]][path[i - 1]][path[i]]
        tr = trans[i] if per_position else trans
        score = score + tr[path[i - 1]][path[i]]
        score = score + emit[i][path[i]]
    return score + stop[path[-1]]


def brute_force_decode(emit, trans, start, stop, per_position=False, trans2=None):
    """Best path by enumerating all T**n tag sequences.

    Ties: the path that is smallest when compared from its last tag backwards (what Viterbi
    with lowest-index back-pointers returns).
    """
    from itertools import product

    n, T = len(emit), len(emit[0])
    best_path, best = None, None
    for path in product(range(T), repeat=n):
        s = sequence_score(emit, trans, start, stop, path, per_position, trans2)
        if best is None or s > best or (s == best and path[::-1] < best_path[::-1]):
            best, best_path = s, path
    return best, list(best_path)


def _greedy_local(emit, trans, start, stop, path, i, t, per_position, trans2):
    """The score greedy decoding gives tag t at token i, the tags path[:i] chosen."""
    tr = trans[i] if per_position else trans
    v = emit[i][t] + (start[t] if i == 0 else tr[path[i - 1]][t])
    if trans2 is not None and i >= 2:
        v = v + trans2[path[i - 2]][path[i - 1]][t]
    return v + stop[t] if i == len(emit) - 1 else v


def greedy_decode(emit, trans, start, stop, per_position=False, trans2=None):
    """Left to right: each token's best tag given the previous choice (stop added at the end)."""
    n, T = len(emit), len(emit[0])
    path = []
    for i in range(n):
        local = [_greedy_local(emit, trans, start, stop, path, i, t, per_position, trans2) for t in range(T)]
        path.append(max(range(T), key=lambda t: (local[t], -t)))
    return path


def _softmax(v):
    m = max(v)
    e = [math.exp(x - m) for x in v]
    return [x / sum(e) for x in e]


def brute_force_marginals(emit, trans, start, stop, per_position=False, trans2=None):
    """p(y_i = t) under p(y) ∝ exp(score(y)), summed over all T**n tag sequences."""
    from itertools import product

    n, T = len(emit), len(emit[0])
    paths = list(product(range(T), repeat=n))
    p = _softmax([sequence_score(emit, trans, start, stop, y, per_position, trans2) for y in paths])
    out = [[0.0] * T for _ in range(n)]
    for y, q in zip(paths, p):
        for i, t in enumerate(y):
            out[i][t] += q
    return out


def greedy_confidences(emit, trans, start, stop, path, per_position=False, trans2=None):
    """Per token, the softmax of the scores greedy decoding compared (NLTK's confidence)."""
    T = len(emit[0])
    return [
        _softmax([_greedy_local(emit, trans, start, stop, path, i, t, per_position, trans2) for t in range(T)])
        for i in range(len(emit))
    ]


def structured_perceptron(
    sequences, n_features, n_tags, epochs, orders=None, decoder="viterbi", n_edge=0, second_order=False
):
    """Collins' perceptron, written out with lists and an explicit average.

    ``sequences``: list of (tokens, tags) or (tokens, tags, edges) with tokens a list of
    {feature: value} dicts and edges a list (per token) of edge-feature ids, whose weights E[f]
    (T × T) add to the transition into that token.
    ``orders``: one list of sequence indices per epoch (default: given order).
    ``second_order`` adds a weight per tag triple (T2[a][b][c]).
    Returns (last weights, mean weights), each a tuple (W[f][t], trans, start, stop, E, T2) of
    lists; the mean is taken over the weight vectors after every sequence visit, copied out in full.
    """

    def zeros(*shape):
        return [0.0] * shape[0] if len(shape) == 1 else [zeros(*shape[1:]) for _ in range(shape[0])]

    W, trans, E = zeros(n_features, n_tags), zeros(n_tags, n_tags), zeros(max(n_edge, 1), n_tags, n_tags)
    start, stop = zeros(n_tags), zeros(n_tags)
    total = (
        zeros(n_features, n_tags),
        zeros(n_tags, n_tags),
        zeros(n_tags),
        zeros(n_tags),
        zeros(max(n_edge, 1), n_tags, n_tags),
    )
    T2, total_T2 = zeros(n_tags, n_tags, n_tags), zeros(n_tags, n_tags, n_tags)
    visits = 0

    def phi(tokens, tags, edges, sign):
        for x, t in zip(tokens, tags):
            for f, v in x.items():
                W[f][t] += sign * v
        start[tags[0]] += sign
        stop[tags[-1]] += sign
        for i in range(1, len(tags)):
            a, b = tags[i - 1], tags[i]
            trans[a][b] += sign
            for f in edges[i]:
                E[f][a][b] += sign
            if second_order and i >= 2:
                T2[tags[i - 2]][a][b] += sign

    for e in range(epochs):
        order = orders[e] if orders else range(len(sequences))
        for s in order:
            tokens, gold = sequences[s][:2]
            edges = sequences[s][2] if len(sequences[s]) > 2 else [[] for _ in tokens]
            emit = [[sum(v * W[f][t] for f, v in x.items()) for t in range(n_tags)] for x in tokens]
            per_pos = [
                [[trans[a][b] + sum(E[f][a][b] for f in edges[i]) for b in range(n_tags)] for a in range(n_tags)]
                for i in range(len(tokens))
            ]
            if decoder == "viterbi":
                pred = brute_force_decode(emit, per_pos, start, stop, True, T2 if second_order else None)[1]
            else:
                pred = greedy_decode(emit, per_pos, start, stop, True, T2 if second_order else None)
            if list(pred) != list(gold):
                phi(tokens, gold, edges, +1.0)
                phi(tokens, pred, edges, -1.0)
            visits += 1
            for f in range(n_features):
                for t in range(n_tags):
                    total[0][f][t] += W[f][t]
            for a in range(n_tags):
                for b in range(n_tags):
                    total[1][a][b] += trans[a][b]
                total[2][a] += start[a]
                total[3][a] += stop[a]
            for f in range(n_edge):
                for a in range(n_tags):
                    for b in range(n_tags):
                        total[4][f][a][b] += E[f][a][b]
            for a in range(n_tags):
                for b in range(n_tags):
                    for c in range(n_tags):
                        total_T2[a][b][c] += T2[a][b][c]
    mean = (
        [[v / visits for v in row] for row in total[0]],
        [[v / visits for v in row] for row in total[1]],
        [v / visits for v in total[2]],
        [v / visits for v in total[3]],
        [[[v / visits for v in row] for row in m] for m in total[4][:n_edge]],
        [[[v / visits for v in row] for row in m] for m in total_T2],
    )
    return (W, trans, start, stop, E[:n_edge], T2), mean


def delayed_structured_perceptron(sequences, n_features, n_tags, rounds):
    """Collins' perceptron in threads that exchange their updates after every round (checks
    perceptrons.threads.rounds), written out with lists: first order, Viterbi by brute force.

    ``rounds``: per epoch, its rounds, each a list of S chunks of sequence indices.  In a round
    every thread decodes its chunk with its own copy of the weights, updating the copy at once;
    then every copy makes the other threads' updates.  Thread i counts its visits from where the
    threads before it in the round end.  Returns (last weights, mean weights), each
    (W[f][t], trans, start, stop); the mean is over the iterates of the visits in that count
    order (each update made right after its visit), summed explicitly.
    """

    def zeros(*shape):
        return [0.0] * shape[0] if len(shape) == 1 else [zeros(*shape[1:]) for _ in range(shape[0])]

    def blank():
        return [zeros(n_features, n_tags), zeros(n_tags, n_tags), zeros(n_tags), zeros(n_tags)]

    def add(weights, delta, sign=1.0):
        (W, trans, start, stop), (dW, dtrans, dstart, dstop) = weights, delta
        for f in range(n_features):
            for t in range(n_tags):
                W[f][t] += sign * dW[f][t]
        for a in range(n_tags):
            for b in range(n_tags):
                trans[a][b] += sign * dtrans[a][b]
            start[a] += sign * dstart[a]
            stop[a] += sign * dstop[a]

    def phi(tokens, tags):
        out = blank()
        for x, t in zip(tokens, tags):
            for f, v in x.items():
                out[0][f][t] += v
        out[2][tags[0]] += 1.0
        out[3][tags[-1]] += 1.0
        for i in range(1, len(tags)):
            out[1][tags[i - 1]][tags[i]] += 1.0
        return out

    S = len(rounds[0][0])
    copies = [blank() for _ in range(S)]
    updates = []  # (visit count, delta) of every update, every thread
    count = 0
    for epoch in rounds:
        for chunks in epoch:
            logs = []
            for i, chunk in enumerate(chunks):
                W, trans, start, stop = copies[i]
                c = count + sum(len(ch) for ch in chunks[:i])
                log = []
                for s in chunk:
                    tokens, gold = sequences[s][:2]
                    emit = [[sum(v * W[f][t] for f, v in x.items()) for t in range(n_tags)] for x in tokens]
                    pred = brute_force_decode(emit, trans, start, stop)[1]
                    if list(pred) != list(gold):
                        delta = phi(tokens, gold)
                        add(delta, phi(tokens, pred), -1.0)
                        add(copies[i], delta)
                        log.append((c, delta))
                    c += 1
                logs.append(log)
            for i in range(S):
                for j, log in enumerate(logs):
                    if j != i:
                        for _, delta in log:
                            add(copies[i], delta)
            updates += [u for log in logs for u in log]
            count += sum(len(ch) for ch in chunks)
    total, w = blank(), blank()
    for t in range(count):
        for c, delta in updates:
            if c == t:
                add(w, delta)
        add(total, w)
    mean = [
        [[v / count for v in row] for row in total[0]],
        [[v / count for v in row] for row in total[1]],
        [v / count for v in total[2]],
        [v / count for v in total[3]],
    ]
    return copies[0], mean


# ----------------------------------------------------------------------------- kernel perceptron
# Oracle of perceptrons._jit.dual.epoch_dual / voted_scores: the dual PLA written the slow way,
# re-summing f(x_i) = Σ_j A[j][k]·K(x_j, x_i) + b[k] over the support at every visit, and keeping
# every intermediate hypothesis for the average and the vote (what the fast code avoids).


def kernel_linear(x, z, gamma=None, degree=None, coef0=None):
    return dot(x, z)


def kernel_poly(x, z, gamma, degree, coef0):
    return (gamma * dot(x, z) + coef0) ** degree


def kernel_rbf(x, z, gamma, degree=None, coef0=None):
    return math.exp(-gamma * sum((a - b) ** 2 for a, b in zip(x, z)))


def kernel_sigmoid(x, z, gamma, degree, coef0):
    return math.tanh(gamma * dot(x, z) + coef0)


REFERENCE_KERNELS = {"linear": kernel_linear, "poly": kernel_poly, "rbf": kernel_rbf, "sigmoid": kernel_sigmoid}


def dual_perceptron(
    X,
    y,
    n_classes,
    kernel,
    *,
    fit_intercept=True,
    max_epochs=100,
    margin=0.0,
    weights=None,
    budget=None,
    policy="random",
    uniforms=None,
    eta=0.1,
):
    """Kernel perceptron, cyclic order, y ∈ {0..K-1} (K = 2: binary with y = +1 for class 1).

    ``kernel(x, z)`` is a plain function.  Binary: one coefficient column, a mistake is
    y·f(x) ≤ margin, the update adds a·y.  Multiclass: true minus runner-up score ≤ margin
    (runner-up ties to the lowest index), +a to the true class, −a to the runner-up.
    ``budget``: at most that many support examples; when a new one is needed and the support is
    full, drop the oldest (policy "oldest") or the one at position ⌊u·size⌋ of the kept list
    (policy "random", u = uniforms[epoch][t]), where the kept list is ordered as the fast code
    keeps it (the hole is filled by the oldest, which then leaves the front).  Policy "bpa"
    (BPA-S, Wang & Vucetic 2010) drops the first kept m minimising ‖A_m‖²·(K(m,m) − K(m,i)²/K(i,i))
    and adds A_m·K(m,i)/K(i,i) to the new example's coefficients after its update; "forgetron"
    (Dekel et al. 2008, self-tuned) drops the oldest m, then shrinks every coefficient (and the
    bias) by the largest φ ≤ 1 with ψ(σφ, μ) + Q ≤ 15/32·M, ψ(λ, μ) = λ² + 2λ − 2λμ, σ the
    largest |A_m|, μ m's margin with the new example's update, M the updates so far.
    Policies "projectron" and "projectron++" (Orabona, Keshet & Caputo 2009) drop none: see
    :func:`_projectron_visit`.
    Returns a dict: alpha (updates per example), A (n lists of K), b, mistakes_per_epoch,
    support (kept examples), hypotheses [(A, b, survived_visits)] in order (the zero hypothesis
    first), visits.
    """
    n = len(X)
    cols = 1 if n_classes == 2 else n_classes
    weights = weights or [1.0] * n
    A = [[0.0] * cols for _ in range(n)]
    b = [0.0] * cols
    alpha = [0] * n
    kept = []  # kept support examples, front = next to leave under "oldest"
    history = []
    q_sum, updates = 0.0, 0
    hypotheses = [[[row[:] for row in A], b[:], 0]]
    visits = 0

    def scores(i):
        return [sum(A[j][k] * kernel(X[j], X[i]) for j in range(n) if A[j][k] != 0.0) + b[k] for k in range(cols)]

    for epoch in range(max_epochs):
        mistakes = 0
        for i in range(n):
            a = weights[i]
            if a == 0:
                continue
            if policy in ("projectron", "projectron++"):
                if _projectron_visit(
                    X, y, i, a, A, b, kept, scores(i), kernel, n_classes, margin, budget, policy, eta, fit_intercept
                ):
                    mistakes += 1
                    updates += 1
                    alpha[i] += 1
                    hypotheses.append([[row[:] for row in A], b[:], 0])
                visits += 1
                hypotheses[-1][2] += 1
                continue
            s = scores(i)
            if n_classes == 2:
                sign = 1.0 if y[i] == 1 else -1.0
                mistake = sign * s[0] <= margin
            else:
                k = y[i]
                r = max((c for c in range(cols) if c != k), key=lambda c: (s[c], -c))
                mistake = s[k] - s[r] <= margin
            if mistake:
                carry, phi = None, 1.0
                if budget is not None and i not in kept:
                    if len(kept) == budget:
                        if policy == "random":
                            q = min(int(uniforms[epoch][i] * len(kept)), len(kept) - 1)
                        elif policy == "bpa":
                            kii = kernel(X[i], X[i])

                            def loss(m):
                                kmi = kernel(X[m], X[i])
                                return sum(v * v for v in A[m]) * (kernel(X[m], X[m]) - kmi * kmi / kii)

                            q = min(range(len(kept)), key=lambda p: (loss(kept[p]), p))
                        else:  # oldest, forgetron
                            q = 0
                        m = kept[q]
                        if policy == "bpa":
                            carry = [amk * kernel(X[m], X[i]) / kernel(X[i], X[i]) for amk in A[m]]
                        if policy == "forgetron":
                            sm, kim = scores(m), kernel(X[i], X[m])
                            if n_classes == 2:
                                sm[0] += a * sign * kim
                                mu = (1.0 if y[m] == 1 else -1.0) * sm[0]
                            else:
                                sm[k] += a * kim
                                sm[r] -= a * kim
                                mu = sm[y[m]] - max(sm[c] for c in range(cols) if c != y[m])
                            sigma = max(abs(v) for v in A[m])
                            room = 15 / 32 * (updates + 1) - q_sum
                            psi_full = sigma * sigma + 2 * sigma - 2 * sigma * mu
                            if sigma > 0 and psi_full > room:
                                root = (-(1 - mu) + math.sqrt((1 - mu) ** 2 + max(room, 0.0))) / sigma
                                phi = min(1.0, max(0.0, root))
                            lam = sigma * phi
                            q_sum += lam * lam + 2 * lam - 2 * lam * mu
                        if fit_intercept:  # the dropped example takes its share of the bias
                            b = [bk - amk for bk, amk in zip(b, A[m])]
                        A[m] = [0.0] * cols
                        kept[q] = kept[0]
                        kept.pop(0)
                    kept.append(i)
                mistakes += 1
                updates += 1
                alpha[i] += 1
                if n_classes == 2:
                    A[i][0] += a * sign
                    if fit_intercept:
                        b[0] += a * sign
                else:
                    A[i][k] += a
                    A[i][r] -= a
                    if fit_intercept:
                        b[k] += a
                        b[r] -= a
                if carry is not None:
                    A[i] = [v + d for v, d in zip(A[i], carry)]
                    if fit_intercept:
                        b = [bk + d for bk, d in zip(b, carry)]
                if phi < 1.0:
                    A = [[v * phi for v in row] for row in A]
                    b = [bk * phi for bk in b]
                hypotheses.append([[row[:] for row in A], b[:], 0])
            visits += 1
            hypotheses[-1][2] += 1
        history.append(mistakes)
        if mistakes == 0:
            break
    support = sorted(kept) if budget is not None else [j for j in range(n) if alpha[j] > 0]
    return {
        "alpha": alpha,
        "A": A,
        "b": b,
        "mistakes_per_epoch": history,
        "support": support,
        "hypotheses": [tuple(h) for h in hypotheses],
        "visits": visits,
    }


def _projectron_visit(X, y, i, a, A, b, kept, s, kernel, n_classes, margin, budget, policy, eta, fit_intercept):
    """One visit of the Projectron / Projectron++ (Orabona, Keshet & Caputo 2009, Figs. 1 and
    3; the margin-error step as the authors' DOGMA library computes it): updates ``A``, ``b``
    and ``kept`` in place, returns whether it updated.

    A mistake (margin ≤ ``margin``) on an example not kept projects it onto the kept examples'
    span, ``d = K_S⁻¹ k``, ``δ² = K(x, x) − k·d``: kept (appended) when the budget has room and
    δ² > max(η, 1e-10·K(x, x)), its coefficient updated as the plain perceptron's; else the update
    is made on the kept examples' coefficients, times d.  Projectron++ also updates on a margin
    error (``margin`` < m < 1, m = y·f or the true minus runner-up score), by projection only, with
    the step ``a·min(1, ℓ/N, 2(ℓ − c·δ²/η)/N)`` when ``ℓ − c·δ²/η > 0``, ℓ = 1 − m, N = c·k·d, and
    c = 2 with more than two classes (two score columns move).  The bias, where learnt, receives
    every coefficient's change.  ``K_S⁻¹ k`` is solved afresh here, where the compiled loop grows
    an inverse: the two agree to rounding."""
    import numpy as np

    cols = len(b)
    if n_classes == 2:
        sign = 1.0 if y[i] == 1 else -1.0
        value = sign * s[0]
        k = r = 0
    else:
        k = y[i]
        r = max((c for c in range(cols) if c != k), key=lambda c: (s[c], -c))
        value = s[k] - s[r]
        sign = 1.0
    mistake = value <= margin
    if not mistake and not (policy == "projectron++" and value < 1.0):
        return False
    kii = kernel(X[i], X[i])
    member = i in kept
    if member:
        norm2, delta2, d = kii, 0.0, []
    elif kept:
        G = np.array([[kernel(X[p], X[q]) for q in kept] for p in kept])
        kv = np.array([kernel(X[p], X[i]) for p in kept])
        d = np.linalg.solve(G, kv).tolist()
        norm2 = float(sum(u * v for u, v in zip(kv.tolist(), d)))
        delta2 = max(kii - norm2, 0.0)
    else:
        norm2, delta2, d = 0.0, kii, []
    keep = not member and mistake and len(kept) < budget and delta2 > max(eta, 1e-10 * kii)
    if mistake:
        amount = a
    else:
        c = 1.0 if n_classes == 2 else 2.0
        loss = 1.0 - value
        excess = loss - ((c * delta2 / eta if eta > 0 else math.inf) if delta2 > 0 else 0.0)
        amount = a * min(1.0, loss / (c * norm2), 2 * excess / (c * norm2)) if excess > 0 and norm2 > 0 else 0.0
    if amount == 0.0:
        return False
    targets = [(i, 1.0)] if member or keep else list(zip(kept, d))
    if keep:
        kept.append(i)
    for j, coef in targets:
        step = amount * coef
        if n_classes == 2:
            A[j][0] += step * sign
            if fit_intercept:
                b[0] += step * sign
        else:
            A[j][k] += step
            A[j][r] -= step
            if fit_intercept:
                b[k] += step
                b[r] -= step
    return True


def averaged_dual(result):
    """Mean of the hypotheses after every visit: Σ survived·A / visits (and the same for b)."""
    T = result["visits"]
    n, cols = len(result["A"]), len(result["b"])
    A = [[sum(h[0][j][k] * h[2] for h in result["hypotheses"]) / T for k in range(cols)] for j in range(n)]
    b = [sum(h[1][k] * h[2] for h in result["hypotheses"]) / T for k in range(cols)]
    return A, b


def voted_dual_predict(result, X_train, X_test, kernel, n_classes):
    """Each stored hypothesis votes for its prediction with its survival count; argmax wins
    (binary: sign, with sign(0) = +1, and a tied vote goes to the positive class; multiclass
    ties go to the lowest class index)."""
    out = []
    for x in X_test:
        votes = [0.0] * n_classes
        for A, b, c in result["hypotheses"]:
            if c == 0:
                continue
            s = [sum(A[j][k] * kernel(X_train[j], x) for j in range(len(A))) + b[k] for k in range(len(b))]
            if n_classes == 2:
                votes[1 if s[0] >= 0 else 0] += c
            else:
                votes[max(range(n_classes), key=lambda k: (s[k], -k))] += c
        if n_classes == 2:
            out.append(1 if votes[1] >= votes[0] else 0)
        else:
            out.append(max(range(n_classes), key=lambda k: (votes[k], -k)))
    return out


# ----------------------------------------------------------------------------- theory (LP by perceptron)
# Oracles of perceptrons._jit.lp: the homogeneous system A x > 0, rows as lists.
# math.sqrt (imported above) is correctly rounded, as the kernel's sqrt.


def lp_perceptron_phase(A, x, max_updates):
    """Cyclic PLA on A x > 0 from x: returns (x, updates, solved).

    Rows are scanned 0, 1, ..., m-1, 0, ...; a row with a·x ≤ 0 is added to x; m clean rows in
    a row end the run (solved), and so does a mistake found once max_updates updates are spent.
    """
    x = list(x)
    m = len(A)
    updates = clean = i = 0
    while True:
        if dot(A[i], x) <= 0.0:
            if updates >= max_updates:
                return x, updates, False
            x = [xj + aj for xj, aj in zip(x, A[i])]
            updates += 1
            clean = 0
        else:
            clean += 1
            if clean >= m:
                return x, updates, True
        i = (i + 1) % m


def lp_improvement_phase(A, z, sigma, max_steps):
    """Dunagan–Vempala improvement from unit z: returns (z, status, steps).

    Status 1: z solves A z > 0; 2: every a·z ≥ -sigma (rescale along z); 0: steps ran out.
    The most violated row (lowest a·z, first on ties) is projected out and z renormalised.
    """
    z = list(z)
    for step in range(max_steps):
        scores = [dot(a, z) for a in A]
        k = min(range(len(A)), key=lambda i: (scores[i], i))
        if scores[k] > 0.0:
            return z, 1, step
        if scores[k] >= -sigma:
            return z, 2, step
        z = [zj - scores[k] * aj for zj, aj in zip(z, A[k])]
        norm = math.sqrt(sum(zj * zj for zj in z))
        z = [zj / norm for zj in z]
    return z, 0, max_steps


# ----------------------------------------------------------------------------- tagging features
# Oracle of perceptrons.structured.features: the same templates, extracted token by token with
# strings, the slow way the type-level numpy path replaces.
def word_shape(word):
    """A character by its Unicode category: an upper- or title-case letter "X", any other
    letter "x", a decimal digit (of any script) "d", a combining mark nothing, the rest itself."""
    import unicodedata

    out = []
    for ch in word:
        cat = unicodedata.category(ch)
        if cat in ("Lu", "Lt"):
            out.append("X")
        elif cat.startswith("L"):
            out.append("x")
        elif cat == "Nd":
            out.append("d")
        elif not cat.startswith("M"):
            out.append(ch)
    return "".join(out)


def word_attribute(word, attr, clusters=None):
    """One attribute string of a word ("l=the", "s3=ing", ...) or None when it has none.

    ``clusters`` is a dict word → Brown bit path; "bc" is the path of the word as written, else
    lower-cased, else capitalised; "bc4" etc. its prefixes; "bcl" the path of the lower case.
    """
    low = word.lower()
    if attr.startswith("bc"):
        clusters = clusters or {}
        if attr == "bcl":
            path = clusters.get(low)
            return None if path is None else "bcl=" + path
        path = clusters.get(word) or clusters.get(low) or clusters.get(word[:1].upper() + word[1:].lower())
        if path is None:
            return None
        return f"{attr}={path if attr == 'bc' else path[: int(attr[2:])]}"
    if attr == "w":
        return "w=" + word
    if attr == "l":
        return "l=" + low
    if attr[0] in "ps" and attr[1:].isdigit():
        k = int(attr[1:])
        if len(low) < k:
            return None
        return f"{attr}={low[:k]}" if attr[0] == "p" else f"{attr}={low[-k:]}"
    if attr == "sh":
        shape = word_shape(word)
        return "sh=" + (shape if len(shape) <= 12 else shape[:6] + "~" + shape[-6:])
    if attr == "ss":
        shape = word_shape(word)
        collapsed = [c for i, c in enumerate(shape) if i == 0 or c != shape[i - 1]]
        return "ss=" + "".join(collapsed)
    flags = {"d": any(c.isdigit() for c in word), "h": "-" in word, "c": word[:1].isupper(), "u": word.isupper()}
    return attr + "=1" if flags[attr] else None


def token_features(words, i, templates, clusters=None):
    """The feature strings of token i: "template=value[|value]" for each template that fires."""
    feats = set()
    for template in templates:
        if template == "bias":
            feats.add("bias")
            continue
        values = []
        for part in template.split("|"):
            attr, offset = part[:-1].split("[")
            j = i + int(offset)
            if j < 0:
                values.append("<s>")
            elif j >= len(words):
                values.append("</s>")
            else:
                values.append(word_attribute(words[j], attr, clusters))
        if all(v is not None for v in values):
            feats.add(template + "=" + "|".join(values))
    return feats


# ----------------------------------------------------------------------------- random mistake, multiclass pocket
def random_mistake_pla(X, y, rs, *, n_classes=2, fit_intercept=True, margin=0.0):
    """Succinctly's loop: each step scans every example, then updates on one mistake.

    Oracle of ``_jit.linear.random_mistake_binary`` / ``_multiclass``.  Step t lists the
    mistakes in data order and updates on the one at position ⌊r_t · m⌋ (r_t from ``rs``);
    it stops at the first scan without a mistake.  Binary: y ∈ {-1, +1}, one vector; else
    y ∈ {0..K-1} and the multiclass update of :func:`multiclass_pla`.
    Returns (weights, biases, mistakes found by each scan).
    """
    d = len(X[0])
    K = 1 if n_classes == 2 else n_classes
    W, b = [[0.0] * d for _ in range(K)], [0.0] * K
    history = []
    for r in rs:
        found = []
        for i, x in enumerate(X):
            if n_classes == 2:
                if y[i] * (dot(W[0], x) + b[0]) <= margin:
                    found.append(i)
            else:
                scores = [dot(W[c], x) + b[c] for c in range(K)]
                q = max((c for c in range(K) if c != y[i]), key=lambda c: (scores[c], -c))
                if scores[y[i]] - scores[q] <= margin:
                    found.append(i)
        history.append(len(found))
        if not found:
            break
        i = found[min(int(r * len(found)), len(found) - 1)]
        x = X[i]
        if n_classes == 2:
            W[0] = [wj + y[i] * xj for wj, xj in zip(W[0], x)]
            b[0] += y[i] if fit_intercept else 0.0
        else:
            scores = [dot(W[c], x) + b[c] for c in range(K)]
            q = max((c for c in range(K) if c != y[i]), key=lambda c: (scores[c], -c))
            W[y[i]] = [wj + xj for wj, xj in zip(W[y[i]], x)]
            W[q] = [wj - xj for wj, xj in zip(W[q], x)]
            if fit_intercept:
                b[y[i]] += 1.0
                b[q] -= 1.0
    return W, b, history


def multiclass_errors(W, b, X, y):
    """Training errors of the argmax rule (ties to the lowest class index)."""
    wrong = 0
    for x, k in zip(X, y):
        scores = [dot(Wc, x) + bc for Wc, bc in zip(W, b)]
        wrong += scores.index(max(scores)) != k
    return wrong


def multiclass_pocket(X, y, n_classes, *, fit_intercept=True, max_epochs=100, ratchet=True):
    """:func:`pocket` with one weight vector per class (oracle of ``pocket_epoch_multiclass``).

    Returns (pocket W as K lists, pocket b, pocket errors after each epoch, replacements).
    """
    d = len(X[0])
    W, b = [[0.0] * d for _ in range(n_classes)], [0.0] * n_classes
    pW, pb = [list(w) for w in W], list(b)
    perr, prun = multiclass_errors(W, b, X, y), 0
    run, counted, history, replacements = 0, False, [], 0
    for _ in range(max_epochs):
        mistakes = 0
        for x, k in zip(X, y):
            scores = [dot(W[c], x) + b[c] for c in range(n_classes)]
            q = max((c for c in range(n_classes) if c != k), key=lambda c: (scores[c], -c))
            if scores[k] - scores[q] <= 0:
                mistakes += 1
                W[k] = [wj + xj for wj, xj in zip(W[k], x)]
                W[q] = [wj - xj for wj, xj in zip(W[q], x)]
                if fit_intercept:
                    b[k] += 1.0
                    b[q] -= 1.0
                run, counted = 0, False
                continue
            run += 1
            if run > prun and not counted:
                if ratchet:
                    counted = True
                    e = multiclass_errors(W, b, X, y)
                    prun = run
                    if e < perr:
                        pW, pb, perr = [list(w) for w in W], list(b), e
                        replacements += 1
                else:
                    pW, pb, prun = [list(w) for w in W], list(b), run
                    replacements += 1
        history.append(perr if ratchet else multiclass_errors(pW, pb, X, y))
        if mistakes == 0:
            break
    return pW, pb, history, replacements


# ----------------------------------------------------------------------------- iterative parameter mixing
def ipm(shards, *, mixing="error", max_epochs=10, fit_intercept=True, rounds=1):
    """McDonald, Hall & Mann's iterative parameter mixing over binary cyclic PLAs (checks
    perceptrons.distributed and its mix of the averaging sums).

    ``shards`` is a list of (X, y).  With ``rounds`` R each shard's epoch is cut into R
    consecutive parts (rows ``r·n//R`` to ``(r+1)·n//R``), and the weights are mixed after each.
    Returns (w, b, mean of every iterate's w, mean b, the per-epoch list of each shard's
    mistakes).  The mean runs over each example visited on every shard in every epoch, the
    explicit way.
    """
    d = len(shards[0][0][0])
    w, b = [0.0] * d, 0.0
    sum_w, sum_b, visits, history = [0.0] * d, 0.0, 0, []
    for _ in range(max_epochs):
        epoch_ks = [0] * len(shards)
        for r in range(rounds):
            results, ks = [], []
            for X, y in shards:
                n = len(y)
                wi, bi, k = list(w), b, 0
                for x, label in zip(
                    X[r * n // rounds : (r + 1) * n // rounds], y[r * n // rounds : (r + 1) * n // rounds]
                ):
                    if label * (dot(wi, x) + bi) <= 0:
                        k += 1
                        wi = [wj + label * xj for wj, xj in zip(wi, x)]
                        bi += label if fit_intercept else 0.0
                    sum_w = [s + v for s, v in zip(sum_w, wi)]
                    sum_b += bi
                    visits += 1
                results.append((wi, bi))
                ks.append(k)
            total = sum(ks)
            mu = [1.0 / len(shards)] * len(shards) if mixing == "uniform" or total == 0 else [k / total for k in ks]
            w = [sum(m * r_[0][j] for m, r_ in zip(mu, results)) for j in range(d)]
            b = sum(m * r_[1] for m, r_ in zip(mu, results))
            epoch_ks = [a + k for a, k in zip(epoch_ks, ks)]
        history.append(epoch_ks)
        if sum(epoch_ks) == 0:
            break
    return w, b, [s / visits for s in sum_w], sum_b / visits, history


# ----------------------------------------------------------------------------- online family
# Checks perceptrons._jit.online.  Each learner sees x̃ = (x, 1) when fit_intercept (the bias
# is the last weight) and, with K > 2 classes, the joint vector z = Φ(x, y) − Φ(x, r) of the
# true class and the runner-up r (best other score, ties to the lowest index) with label +1.
# Each returns (W, history): W a list of K rows of d (+1) weights (one row when binary), and
# the (mistakes, updates) of every epoch.


def _online_rows(X, y, n_classes, fit_intercept):
    rows = [list(map(float, x)) + ([1.0] if fit_intercept else []) for x in X]
    return rows, list(y), (1 if n_classes == 2 else n_classes)


def _joint(W, x, k, binary):
    """(margin, z as {(class, feature): value}, label) of an example for weights W."""
    if binary:
        y = 1.0 if k == 1 else -1.0
        return y * dot(W[0], x), {(0, j): y * v for j, v in enumerate(x)}
    scores = [dot(w, x) for w in W]
    r = min((c for c in range(len(W)) if c != k), key=lambda c: (-scores[c], c))
    z = {(k, j): v for j, v in enumerate(x)}
    for j, v in enumerate(x):
        z[(r, j)] = z.get((r, j), 0.0) - v
    return scores[k] - scores[r], z


def _add_into(total, W):
    """total += W, row by row (the running sum behind an averaged model's mean of iterates)."""
    for t, w in zip(total, W):
        for j, wj in enumerate(w):
            t[j] += wj


def _mean(total, visits, W):
    """The mean of the iterates: ``total / visits`` (W itself before any visit)."""
    return W if visits == 0 else [[t / visits for t in row] for row in total]


def online_pa(X, y, n_classes, *, variant="pa1", C=1.0, fit_intercept=True, max_epochs=5, weights=None, average=False):
    """PA, PA-I, PA-II (Crammer et al. 2006, Fig. 1): τ = ℓ/‖z‖², min(C, ℓ/‖z‖²), ℓ/(‖z‖² + 1/2C).

    A weight ``a`` scales the step (0: the row is not visited); ``average`` returns the mean of the
    weights held after each visit instead of the last ones."""
    rows, y, K = _online_rows(X, y, n_classes, fit_intercept)
    W = [[0.0] * len(rows[0]) for _ in range(K)]
    total, visits = [[0.0] * len(rows[0]) for _ in range(K)], 0
    weights = weights or [1.0] * len(rows)
    history = []
    for _ in range(max_epochs):
        mistakes = updates = 0
        for x, k, a in zip(rows, y, weights):
            if a == 0:
                continue
            m, z = _joint(W, x, k, K == 1)
            mistakes += m <= 0
            q = sum(v * v for v in z.values())
            if m < 1 and q > 0:
                loss = 1 - m
                tau = {"pa": loss / q, "pa1": min(C, loss / q), "pa2": loss / (q + 1 / (2 * C))}[variant]
                for (c, j), v in z.items():
                    W[c][j] += a * tau * v
                updates += 1
            _add_into(total, W)
            visits += 1
        history.append((mistakes, updates))
        if updates == 0:
            break
    return (_mean(total, visits, W) if average else W), history


def _second_order_coefficients(rule, m, v, p1, phi, a=1.0):
    """(α, β) of μ += α Σz, Σ −= β Σz zᵀΣ (see perceptrons._jit.second_order.second_order_step)
    for an example of weight ``a``, which scales each rule's loss: AROW's r becomes r/a, SCW's
    C becomes a·C, the second-order perceptron counts the example a times, CW's φ is a·φ."""
    if rule == "cw":
        phi *= a
    if rule == "arow":
        return ((1 - m) / (v + p1 / a), 1 / (v + p1 / a)) if m < 1 else (0.0, 0.0)
    if rule == "sop":
        return ((1 - m) / (1 / a + v), 1 / (1 / a + v)) if m <= 0 else (0.0, 0.0)
    psi, zeta = 1 + phi * phi / 2, 1 + phi * phi
    if rule == "scw2":
        n = v + 1 / (2 * p1 * a)
        gamma = phi * math.sqrt(phi**2 * m * m * v * v + 4 * n * v * (n + v * phi**2))
        alpha = max(0.0, (-(2 * m * n + phi**2 * m * v) + gamma) / (2 * (n * n + n * v * phi**2)))
    else:
        alpha = max(0.0, (-m * psi + math.sqrt(m * m * phi**4 / 4 + v * phi**2 * zeta)) / (v * zeta))
        if rule == "scw1":
            alpha = min(p1 * a, alpha)
    if alpha <= 0:
        return 0.0, 0.0
    # the paper's u = ¼(−αvφ + √(α²v²φ² + 4v))², computed as written (see second_order_step)
    u = (-alpha * v * phi + math.sqrt(alpha**2 * v * v * phi**2 + 4 * v)) ** 2 / 4
    return alpha, alpha * phi / (math.sqrt(u) + v * alpha * phi)


def online_second_order(
    X,
    y,
    n_classes,
    *,
    rule,
    p1=1.0,
    phi=0.0,
    sigma0=1.0,
    full=False,
    fit_intercept=True,
    max_epochs=5,
    weights=None,
    average=False,
):
    """AROW, CW, SCW-I/II and the second-order perceptron over the joint features, with the full
    covariance Σ (a dict of (i, j) entries over (class, feature) keys) or only its diagonal.

    Σ starts at sigma0·I; on an update μ += α Σz (the label folded into z) and
    Σ −= β (Σz)(Σz)ᵀ, keeping only the diagonal when ``full`` is False.  A weight ``a`` enters
    the rule's loss (:func:`_second_order_coefficients`; 0: the row is not visited); ``average``
    as in :func:`online_pa`.
    """
    rows, y, K = _online_rows(X, y, n_classes, fit_intercept)
    D = len(rows[0])
    W = [[0.0] * D for _ in range(K)]
    keys = [(c, j) for c in range(K) for j in range(D)]
    S = {(p, p): sigma0 for p in keys}
    total, visits = [[0.0] * D for _ in range(K)], 0
    weights = weights or [1.0] * len(rows)
    history = []
    for _ in range(max_epochs):
        mistakes = updates = 0
        for x, k, a in zip(rows, y, weights):
            if a == 0:
                continue
            visits += 1
            m, z = _joint(W, x, k, K == 1)
            mistakes += m <= 0
            g = {p: sum(S.get((p, q), 0.0) * zq for q, zq in z.items()) for p in keys}
            v = sum(g[p] * zp for p, zp in z.items())
            if v <= 0:
                _add_into(total, W)
                continue
            alpha, beta = _second_order_coefficients(rule, m, v, p1, phi, a)
            if alpha > 0:
                for c, j in keys:
                    W[c][j] += alpha * g[(c, j)]
                for p in keys:
                    for q in keys if full else [p]:
                        S[(p, q)] = S.get((p, q), 0.0) - beta * g[p] * g[q]
                updates += 1
            _add_into(total, W)
        history.append((mistakes, updates))
        if updates == 0:
            break
    return (_mean(total, visits, W) if average else W), history


def online_scaled(X, y, n_classes, *, rule, alpha=0.9, B=None, C=None, fit_intercept=True, max_epochs=5):
    """ALMA₂ (Gentile 2001, p = 2) and ROMMA (Li & Long 2002; "romma-aggressive" updates on a
    margin below 1), on the joint vector z, the whole weight vector rescaled at an update."""
    rows, y, K = _online_rows(X, y, n_classes, fit_intercept)
    W = [[0.0] * len(rows[0]) for _ in range(K)]
    B = 1 / alpha if B is None else B
    C = math.sqrt(2) if C is None else C
    k_alma = 1
    history = []
    for _ in range(max_epochs):
        mistakes = updates = 0
        for x, k in zip(rows, y):
            gap, z = _joint(W, x, k, K == 1)
            mistakes += gap <= 0
            nz2 = sum(v * v for v in z.values())
            if nz2 == 0:
                continue
            n2 = sum(wj * wj for w in W for wj in w)
            if rule == "alma":
                nz = math.sqrt(nz2)
                if gap / nz > (1 - alpha) * B / math.sqrt(k_alma):
                    continue
                eta = C / math.sqrt(k_alma)
                new = [[wj for wj in w] for w in W]
                for (c, j), v in z.items():
                    new[c][j] += eta * v / nz
                norm = math.sqrt(sum(wj * wj for w in new for wj in w))
                W = [[wj / max(1.0, norm) for wj in w] for w in new]
                k_alma += 1
            else:
                if (gap >= 1) if rule == "romma-aggressive" else (gap > 0):
                    continue
                D = nz2 * n2 - gap * gap
                if n2 == 0 or D <= 1e-12 * nz2 * n2:
                    cc, dd = 0.0, 1 / nz2
                else:
                    cc, dd = (nz2 * n2 - gap) / D, n2 * (1 - gap) / D
                W = [[cc * wj for wj in w] for w in W]
                for (c, j), v in z.items():
                    W[c][j] += dd * v
            updates += 1
        history.append((mistakes, updates))
        if updates == 0:
            break
    return W, history


def online_winnow(X, y, n_classes, *, alpha=2.0, theta=0.0, balanced=True, fit_intercept=True, max_epochs=5):
    """Winnow (Littlestone 1988): weights from 1, multiplied by α^(y·x_j) on a mistake (balanced:
    a second, negative set multiplied by α^(−y·x_j)); score (w⁺ − w⁻)·x − θ.  Returns
    (W⁺, W⁻, history)."""
    rows, y, K = _online_rows(X, y, n_classes, fit_intercept)
    D = len(rows[0])
    P = [[1.0] * D for _ in range(K)]
    N = [[1.0 if balanced else 0.0] * D for _ in range(K)]
    history = []
    for _ in range(max_epochs):
        mistakes = 0
        for x, k in zip(rows, y):
            eff = [[p - n for p, n in zip(pw, nw)] for pw, nw in zip(P, N)]
            if K == 1:
                yk = 1.0 if k == 1 else -1.0
                wrong = yk * (dot(eff[0], x) - theta) <= 0
                moves = [(0, yk)]
            else:
                scores = [dot(w, x) for w in eff]
                r = min((c for c in range(K) if c != k), key=lambda c: (-scores[c], c))
                wrong = scores[k] - scores[r] <= 0
                moves = [(k, 1.0), (r, -1.0)]
            if not wrong:
                continue
            mistakes += 1
            for c, sign in moves:
                for j, v in enumerate(x):
                    if v == 0:
                        continue
                    if K == 1:  # the label's sign in the exponent
                        f = math.exp(sign * v * math.log(alpha))
                        P[c][j] *= f
                        N[c][j] /= f
                    else:  # the true class promoted, the runner-up demoted by the same factor
                        f = math.exp(v * math.log(alpha))
                        P[c][j], N[c][j] = (P[c][j] * f, N[c][j] / f) if sign > 0 else (P[c][j] / f, N[c][j] * f)
        history.append((mistakes, mistakes))
        if mistakes == 0:
            break
    return P, N, history
