// One data source feeds views 1–3: the report's (Python's numbers) or the edited points (the
// page's PLA).  Both have the same shape; `weightsAfter(k)` gives w_{k+1}, the weights after
// update k, with the bias last when it is folded in.

function makeSource(o) {
  const src = Object.assign({}, o);
  src.n = o.X.length;
  src.d = src.n ? o.X[0].length : 2;
  src.p = src.d + (o.fitIntercept ? 1 : 0);
  src.K = o.index.length;
  src.Z = o.X.map((x) => (o.fitIntercept ? x.concat([1]) : x));
  src.bound = o.sep ? (o.R / o.sep.gamma) ** 2 : null;
  // Checkpoints every `stride` updates; in between, add y·z of the logged examples in order —
  // the additions Python's replay made, on the same doubles, so the result is bit-identical.
  src.weightsAfter = (k) => {
    const c = Math.floor(k / o.stride);
    const w = Float64Array.from(o.W[c]);
    for (let m = c * o.stride; m < k; m++) {
      const i = o.index[m], z = src.Z[i], yi = o.y[i];
      for (let j = 0; j < w.length; j++) w[j] += yi * z[j];
    }
    return w;
  };
  // training errors of w_{k+1} as a classifier (sign(0) = +1): Python's, or counted here
  src.errorsAt = (k) => (o.errors && k > 0 ? o.errors[k - 1] : countErrors(src, src.weightsAfter(k)));
  return src;
}

function countErrors(src, w) {
  let e = 0;
  for (let i = 0; i < src.n; i++) if ((dot(w, src.Z[i]) >= 0 ? 1 : -1) !== src.y[i]) e++;
  return e;
}

function pythonSource(data) {
  const t = data.trace, th = data.theory, mm = th.max_margin;
  const fi = data.fit_intercept;
  const sep = mm ? { v: fi ? mm.coef.concat([mm.intercept]) : mm.coef, gamma: mm.gamma, lowerBound: false } : null;
  return makeSource({
    kind: "python", X: data.data.X, y: data.data.y, labels: data.data.labels, fitIntercept: fi,
    domain: data.data.domain, W: t.w, stride: t.stride, index: t.index, epoch: t.epoch, score: t.score, t: t.t,
    norm: t.norm, dot: t.dot, errors: t.errors, R: th.R, sep, support: mm ? mm.support : [],
    converged: t.converged, nEpochs: t.n_epochs, mistakesPerEpoch: t.mistakes_per_epoch, nUpdates: t.n_updates,
    truncated: t.truncated, maxEpochs: t.max_epochs, fs: th.freund_schapire,
  });
}

// w and b of augmented weights (b = 0 through the origin)
function split(src, v) {
  const w = Array.from(v).slice(0, src.d);
  return [w, src.fitIntercept ? v[src.d] : 0];
}

const state = { data: null, reports: [], python: null, src: null, step: 0, views: [], hashTimer: null, playing: false };

function setSource(src, step) {
  state.src = src;
  for (const v of state.views) if (v.build) v.build(src);
  setStep(step === undefined ? 0 : step, true);
  const edited = src.kind === "edit";
  facts(state.data, src); // the header cards follow the points shown
  $("#edit-banner").hidden = !edited;
  for (const node of $$("[data-edit-note]")) node.hidden = !edited;
}

function setStep(k, force) {
  const src = state.src;
  k = clamp(Math.round(Number(k) || 0), 0, src.K);
  if (k === state.step && !force) return;
  state.step = k;
  for (const v of state.views) if (v.update) v.update(src, k);
  scheduleHash();
}

// The step goes into the address without adding history entries; while playing, at most
// four times a second.
function scheduleHash() {
  if (state.src.kind !== "python") return;
  if (state.hashTimer) return;
  const write = () => {
    state.hashTimer = null;
    const want = "#step=" + state.step;
    if (location.hash === want) return;
    try {
      history.replaceState(null, "", want);
    } catch (e) {
      location.replace(want);
    }
  };
  if (state.playing) state.hashTimer = setTimeout(write, 250);
  else write();
}

function stepFromHash() {
  const m = /(?:^#|&)step=(\d+)/.exec(location.hash);
  return m ? +m[1] : null;
}
