// The one place the PLA runs in the page (edit mode): the cyclic PLA with the library's
// conventions — start at w = 0, a mistake when y·(w·x + b) <= 0 (so sign(0) = +1 and the zero
// vector updates), w <- w + y·x and b <- b + y with the bias folded in as x0 = 1.  The score is
// summed feature by feature and the bias added last, as the compiled loop does, so the trace
// is Python's `perceptrons.trace_updates` (the browser tests compare them update by update).

function runPLA(points, options) {
  const opts = Object.assign({ fitIntercept: true, maxEpochs: 1000 }, options || {});
  const X = points.map((p) => (Array.isArray(p) ? p.slice(0, -1) : p.x).map(Number));
  const Y = points.map((p) => (Array.isArray(p) ? p[p.length - 1] : p.y) > 0 ? 1 : -1);
  const n = X.length;
  const d = n ? X[0].length : 2;
  const w = new Array(d).fill(0);
  let b = 0;
  const updates = [];
  const mistakesPerEpoch = [];
  let converged = false;
  for (let epoch = 1; epoch <= opts.maxEpochs && n; epoch++) {
    let mistakes = 0;
    for (let i = 0; i < n; i++) {
      const x = X[i], y = Y[i];
      let s = 0;
      for (let j = 0; j < d; j++) s += x[j] * w[j];
      const score = y * (s + b) + 0;
      if (score <= 0) {
        const before = w.slice(), bBefore = b;
        for (let j = 0; j < d; j++) w[j] += y * x[j];
        if (opts.fitIntercept) b += y;
        mistakes++;
        updates.push({
          k: updates.length + 1, epoch, index: i, score, w_before: before, b_before: bBefore, w_after: w.slice(), b_after: b,
        });
      }
    }
    mistakesPerEpoch.push(mistakes);
    if (mistakes === 0) {
      converged = true;
      break;
    }
  }
  return { updates, converged, n_epochs: mistakesPerEpoch.length, mistakes_per_epoch: mistakesPerEpoch, w, b };
}

// A data source for views 1–3 from edited points: the JS run, R over the augmented vectors,
// and the PLA's own final direction u with its margin γ_PLA — a separator's margin, hence a lower
// bound on γ* (the max-margin QP is Python's; the page does not solve it).
function editSource(points, fitIntercept, maxEpochs, labels) {
  const run = runPLA(points, { fitIntercept, maxEpochs });
  const X = points.map((p) => p.x.slice());
  const y = points.map((p) => p.y);
  const Z = X.map((x) => (fitIntercept ? x.concat([1]) : x));
  const R = Z.length ? arrMax(Z.map(norm)) : 0;
  const W = [new Float64Array(Z.length ? Z[0].length : 3)];
  for (const u of run.updates) W.push(Float64Array.from(fitIntercept ? u.w_after.concat([u.b_after]) : u.w_after));
  let sep = null;
  const last = W[W.length - 1];
  const nl = norm(last);
  if (run.converged && nl > 0) {
    const v = Array.from(last, (c) => c / nl);
    const gamma = arrMin(Z.map((z, i) => y[i] * dot(v, z)));
    if (gamma > 0) sep = { v, gamma, lowerBound: true };
  }
  const t = run.updates.map((u) => (u.epoch - 1) * X.length + u.index + 1);
  return makeSource({
    kind: "edit", X, y, labels, fitIntercept, domain: null, W, stride: 1,
    index: run.updates.map((u) => u.index), epoch: run.updates.map((u) => u.epoch),
    score: run.updates.map((u) => u.score), t,
    norm: W.slice(1).map(norm), dot: sep ? W.slice(1).map((wk) => dot(wk, sep.v)) : null,
    R, sep, support: [], converged: run.converged, nEpochs: run.n_epochs, mistakesPerEpoch: run.mistakes_per_epoch,
    nUpdates: run.updates.length, truncated: false, maxEpochs, run,
  });
}
