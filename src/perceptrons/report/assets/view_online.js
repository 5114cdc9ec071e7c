// View 7: the online family on the report's data — PA, PA-I, PA-II and AROW update by update (the
// margin m = y·(w·z) before it, the hinge loss ℓ = max(0, 1 − m), the step the learner took, and
// w before and after), and each paper's mistake bound trial by trial beside the count.  Every
// number is Python's (perceptrons.report._online); the page only draws them.

const ONLINE_RULES = {
  pa: { update: "w ← w + τ·y·z,  τ = ℓ / ‖z‖²", aim: "the smallest change that puts the example at margin 1" },
  pa1: { update: "w ← w + τ·y·z,  τ = min(C, ℓ / ‖z‖²)", aim: "PA's step, capped at C, so a noisy example cannot pull w far" },
  pa2: { update: "w ← w + τ·y·z,  τ = ℓ / (‖z‖² + 1/(2C))", aim: "PA's step, shrunk by 1/(2C), a squared-loss slack" },
  arow: {
    update: "μ ← μ + α·y·Σz,  Σ ← Σ − β·Σz zᵀΣ,  β = 1 / (v + r),  α = ℓ·β,  v = zᵀΣz",
    aim: "a Gaussian over the weights: directions seen often get small variances and move less",
  },
};
const ONLINE_SOURCES = {
  pa: "Crammer, Dekel, Keshet, Shalev-Shwartz &amp; Singer (2006), Fig. 1 and Theorems 2–5.",
  arow: "Crammer, Kulesza &amp; Dredze (2009), Fig. 1 and Theorem 2.",
};

const viewOnline = {
  key: "pa",
  k: 0,

  init() {
    $("#online-pick").addEventListener("change", (e) => this.select(e.target.value));
    $("#online-slider").addEventListener("input", (e) => this.setStep(e.target.value));
  },

  // a new report (another class against the rest): the menu lists its learners
  reset() {
    const O = state.data.online;
    $("#online-pick").replaceChildren(...O.learners.map((L) => h("option", { value: L.key }, L.name + params(L))));
    if (!O.learners.some((L) => L.key === this.key)) this.key = O.learners[0].key;
    $("#online-pick").value = this.key;
    this.k = 0;
    this.build();
  },

  select(key) {
    this.key = key;
    this.k = 0;
    this.build();
  },

  act(name) {
    const K = this.L.updates ? this.L.updates.t.length : 0;
    const moves = { "online-first": 0, "online-prev": this.k - 1, "online-next": this.k + 1, "online-last": K };
    this.setStep(moves[name]);
  },

  build() {
    const O = state.data.online, D = state.data.data;
    const L = (this.L = O.learners.find((x) => x.key === this.key));
    const rule = ONLINE_RULES[L.key];
    const seq = O.rows === D.n ? `the ${D.n} examples` : `the first ${O.rows} of the ${D.n} examples`;
    $("#online-explain").innerHTML =
      `Beyond the perceptron: learners that also update on examples they got right but by less than margin 1. ` +
      `Each runs over ${seq} in order, ${O.passes} time${O.passes === 1 ? "" : "s"} (${O.trials} trials), from w = 0, ` +
      `bias ${state.data.fit_intercept ? "folded in as z = (x, 1)" : "left out (z = x)"}. ` +
      `<b>${escapeHtml(L.name)}</b>: ${escapeHtml(rule.update)} — ${escapeHtml(rule.aim)}. ` +
      `Its step is read off the learner's own weights; ${ONLINE_SOURCES[L.key === "arow" ? "arow" : "pa"]}`;
    const box = $("#online-chart"), legend = $("#online-legend");
    box.textContent = "";
    legend.textContent = "";
    this.chart = null;
    if (L.skipped) {
      box.append(h("p", { class: "explain" }, `Not run: ${L.skipped}.`));
      $("#online-slider").max = 0;
      setText('[data-q="online-steps"]', "0");
      this.buildBound(null);
      return this.setStep(0);
    }
    const K = L.updates.t.length;
    $("#online-slider").max = K;
    setText('[data-q="online-steps"]', String(K));
    if (D.d === 2 && L.updates.w) {
      const chart = (this.chart = new Chart(box, {
        xDomain: D.domain.slice(0, 2), yDomain: D.domain.slice(2), xLabel: "x₁", yLabel: "x₂", square: true, maxHeight: 460,
        label: `${L.name}'s hyperplane before and after the update`,
      }));
      for (const i of drawnIndices(D.n)) {
        chart.marker(chart.x(D.X[i][0]), chart.y(D.X[i][1]), D.y[i], 4.4, i < O.rows ? "" : "pt-faint", chart.stat);
      }
      if (L.key === "arow") legend.append(legendItem("box", "#5b6472", "AROW unsure: |μ·z| below the margin's standard deviation √(zᵀΣz)"));
      legend.append(
        legendItem("", "var(--cur)", "after the update"),
        legendItem("dot", "var(--cur)", "before it"),
        legendItem("dash", "var(--accent)", "margin 1 after it: w·z = ±1"),
        legendItem("ring", "var(--bad)", "example of this update"),
      );
    } else {
      box.append(h("p", { class: "explain" }, D.d === 2
        ? "The run's weights are too many to keep for drawing; the numbers are exact."
        : `With ${D.d} features the hyperplanes cannot be drawn; the numbers show each update.`));
    }
    this.buildBound(L);
    this.setStep(Math.min(this.k, K));
  },

  // the mistakes so far against the trials, with the bound's curve (or why it does not apply)
  buildBound(L) {
    const box = $("#online-bound-chart"), legend = $("#online-bound-legend");
    box.textContent = "";
    legend.textContent = "";
    this.bound = null;
    if (!L) {
      $("#online-bound-claim").textContent = "";
      $("#online-bound-now").textContent = "";
      return;
    }
    const T = state.data.online.trials;
    const xs = [0], ys = [0];
    L.mistake_trials.forEach((t, j) => { xs.push(t + 1, t + 1); ys.push(j, j + 1); });
    xs.push(T);
    ys.push(L.mistake_trials.length);
    const M = L.mistake_trials.length;
    const B = L.bound;
    const top = B ? arrMax(B.curve) : 0;
    const yMax = Math.max(1, M, B ? Math.min(top, Math.max(10, 8 * M)) : 0) * 1.08;
    const chart = new Chart(box, {
      xDomain: [0, Math.max(1, T)], yDomain: [0, yMax], xLabel: "trials", yLabel: "mistakes so far",
      aspect: 0.5, maxHeight: 300, label: `${L.name}: mistakes and the mistake bound per trial`,
    });
    if (B) {
      const keep = decimate(T, B.curve, DRAWN);
      chart.path(keep.map((t) => t + 1), keep.map((t) => B.curve[t]), "bound s-bound");
      if (top > yMax) {
        s("text", { x: chart.m.left + chart.iw - 4, y: chart.m.top + 14, "text-anchor": "end", class: "offchart" }, chart.stat)
          .textContent = `the bound reaches ${fmt(top)}: above the top ↑`;
      }
    }
    chart.path(xs, ys, "series s-pla");
    legend.append(legendItem("", "var(--cur)", `mistakes of ${L.name}`));
    if (B) legend.append(legendItem("dash", "var(--bad)", `the bound on the trials so far (${B.theorem})`));
    $("#online-bound-claim").innerHTML = B
      ? `${escapeHtml(B.theorem)}: at most <b>${fmt(B.value)}</b> mistakes in these ${T} trials; the run made ` +
        `<b data-q="online-mistakes">${M}</b>. The theorem needs: ${escapeHtml(B.assumptions)}. On every prefix of the ` +
        "run it bounds the mistakes made so far, with the same comparison vector: the curve."
      : `No bound here: ${escapeHtml(L.refused)}. The run made <b data-q="online-mistakes">${M}</b> mistakes.`;
    this.bound = { chart, L };
  },

  setStep(k) {
    const L = this.L;
    const K = L.updates ? L.updates.t.length : 0;
    k = clamp(Math.round(Number(k) || 0), 0, K);
    this.k = k;
    $("#online-slider").value = k;
    setText('[data-q="online-step"]', String(k));
    const u = L.updates, n = state.data.online.rows;
    const tr = $("#online-transition"), line = $("#online-line"), readout = $("#online-readout");
    if (!u) {
      tr.textContent = "";
      line.textContent = "";
      readout.replaceChildren();
      return;
    }
    const p = state.data.data.d + (state.data.fit_intercept ? 1 : 0);
    const wAt = (j) => (!u.w ? null : j === 0 ? new Array(p).fill(0) : u.w[j - 1]);
    const show = (v) => { const [w, b] = splitOnline(v); return vec(w) + (state.data.fit_intercept ? `, b = ${fmt(b)}` : ""); };
    const name = L.key === "arow" ? "μ" : "w";
    const rows = [["Rule", ONLINE_RULES[L.key].update]];
    if (k === 0) {
      tr.replaceChildren(h("span", {}, `${name}${sub(1)} = 0, no update yet. ${K} update${K === 1 ? "" : "s"} follow.`));
      line.textContent = "";
    } else {
      const j = k - 1, i = u.index[j], t = u.t[j];
      const m = u.margin[j];
      const before = wAt(j), after = wAt(k);
      tr.replaceChildren(...(after
        ? [h("span", {}, `${name}${sub(k)} = ${show(before)}`), h("span", { class: "arrow", "aria-label": "becomes" }, "→"),
          h("b", {}, `${name}${sub(k + 1)} = ${show(after)}`)]
        : [h("span", {}, `update ${k}`)]));
      const step = L.key === "arow"
        ? `v = zᵀΣz = ${num(u.variance[j])}  β = ${num(u.beta[j])}  α = ${num(u.step[j])}`
        : `τ = ${num(u.step[j])}`;
      line.textContent =
        `pass ${Math.floor(t / n) + 1}  example ${i + 1}  m = y·(${name}·z) = ${num(m)} ${m <= 0 ? "≤ 0: a mistake" : "< 1: right, inside the margin"}` +
        `  ℓ = max(0, 1 − m) = ${num(u.loss[j])}  ${step}`;
      rows.push(["This update", `trial ${t + 1}, example ${i + 1}, y = ${state.data.data.y[i] > 0 ? "+1" : MINUS + "1"}`]);
      rows.push(["Mistakes so far", String(mistakesBy(L, t))]);
    }
    readout.replaceChildren(...rows.flatMap(([a, v]) => [h("dt", {}, a), h("dd", {}, v)]));
    line.hidden = !line.textContent; // no empty box before the first update
    this.draw(k, wAt);
    this.cursor(k);
  },

  draw(k, wAt) {
    const chart = this.chart;
    if (!chart) return;
    chart.back.textContent = "";
    chart.dyn.textContent = "";
    const [w, b] = splitOnline(wAt(k));
    if (this.L.key === "arow") this.unsure(chart, wAt(k), arowSigma(this.L, k));
    if (w[0] !== 0 || w[1] !== 0) {
      s("polygon", { points: chart.halfPlane(w, b, true), class: "shade-pos" }, chart.back);
      s("polygon", { points: chart.halfPlane(w, b, false), class: "shade-neg" }, chart.back);
      // the margin lines w·z = ±1: where PA puts the example it updated on
      chart.hyperplane(w, b - 1, "line-margin", chart.dyn);
      chart.hyperplane(w, b + 1, "line-margin", chart.dyn);
    }
    if (k > 0) {
      const [wp, bp] = splitOnline(wAt(k - 1));
      if (wp[0] !== 0 || wp[1] !== 0) chart.hyperplane(wp, bp, "line-prev", chart.dyn);
    }
    chart.hyperplane(w, b, "line-cur", chart.dyn);
    drawNormal(chart, w, b, chart.dyn);
    if (k > 0) {
      const x = state.data.data.X[this.L.updates.index[k - 1]];
      s("circle", { cx: chart.x(x[0]), cy: chart.y(x[1]), r: 11, class: "ring-hit" }, chart.dyn);
    }
  },

  // AROW's Gaussian over the weights: where the margin μ·z is within one standard deviation
  // √(zᵀΣz) of 0, the learner is unsure.  Cells of a grid, merged along each row into one rect.
  unsure(chart, mu, sigma) {
    const G = 48, fi = state.data.fit_intercept;
    const [x0, x1] = chart.x.domain, [y0, y1] = chart.y.domain;
    const dx = (x1 - x0) / G, dy = (y1 - y0) / G;
    for (let j = 0; j < G; j++) {
      let start = -1;
      for (let i = 0; i <= G; i++) {
        let inside = false;
        if (i < G) {
          const z = fi ? [x0 + (i + 0.5) * dx, y0 + (j + 0.5) * dy, 1] : [x0 + (i + 0.5) * dx, y0 + (j + 0.5) * dy];
          const m = dot(mu, z);
          const v = dot(z, sigma.map((row) => dot(row, z)));
          inside = m * m < v;
        }
        if (inside && start < 0) start = i;
        if (!inside && start >= 0) {
          const left = chart.x(x0 + start * dx), right = chart.x(x0 + i * dx);
          const top = chart.y(y0 + (j + 1) * dy), bottom = chart.y(y0 + j * dy);
          s("rect", { x: left, y: top, width: right - left, height: bottom - top, class: "unsure" }, chart.back);
          start = -1;
        }
      }
    }
  },

  cursor(k) {
    if (!this.bound) return;
    const L = this.L;
    const t = k === 0 ? 0 : L.updates.t[k - 1] + 1;
    const M = mistakesBy(L, t - 1);
    this.bound.chart.cursorAt(t, M);
    const B = L.bound;
    const now = $("#online-bound-now");
    if (!B || t === 0) {
      now.innerHTML = t === 0 ? "Before the first trial: no mistake yet."
        : `after ${t} trials: <b data-q="online-now">${M}</b> mistake${M === 1 ? "" : "s"}`;
      return;
    }
    const bound = B.curve[t - 1];
    const ok = M <= bound * (1 + 1e-9);
    now.innerHTML = `after ${t} trials: <b data-q="online-now">${M}</b> mistake${M === 1 ? "" : "s"} ${ok ? "≤" : ">"} ` +
      `${fmt(bound)}, the bound on them <span class="${ok ? "ok" : "fail"}">${ok ? "✓" : "✗"}</span>`;
  },
};

// AROW's Σ after its first k updates.  Its update Σ ← Σ − β·Σz zᵀΣ with β = 1/(v + r) is, by
// Sherman–Morrison, Σ⁻¹ ← Σ⁻¹ + z zᵀ/r: so Σ is the inverse of I + Σ z zᵀ/r over the updates
// (Crammer, Kulesza & Dredze 2009, §3), drawn from the examples the page has (the browser tests
// compare it with Python's).
function arowSigma(L, k) {
  const fi = state.data.fit_intercept, X = state.data.data.X, r = L.params.r;
  const p = state.data.data.d + (fi ? 1 : 0);
  const A = Array.from({ length: p }, (_, i) => Array.from({ length: p }, (_, j) => (i === j ? 1 : 0)));
  for (let j = 0; j < k; j++) {
    const x = X[L.updates.index[j]];
    const z = fi ? x.concat([1]) : x;
    for (let a = 0; a < p; a++) for (let b = 0; b < p; b++) A[a][b] += (z[a] * z[b]) / r;
  }
  return inverse(A);
}

// The inverse of a small symmetric positive definite matrix (Gauss–Jordan with partial pivots).
function inverse(A) {
  const p = A.length;
  const M = A.map((row, i) => row.concat(Array.from({ length: p }, (_, j) => (i === j ? 1 : 0))));
  for (let c = 0; c < p; c++) {
    let piv = c;
    for (let i = c + 1; i < p; i++) if (Math.abs(M[i][c]) > Math.abs(M[piv][c])) piv = i;
    [M[c], M[piv]] = [M[piv], M[c]];
    const d = M[c][c];
    for (let j = 0; j < 2 * p; j++) M[c][j] /= d;
    for (let i = 0; i < p; i++) {
      if (i === c) continue;
      const f = M[i][c];
      for (let j = 0; j < 2 * p; j++) M[i][j] -= f * M[c][j];
    }
  }
  return M.map((row) => row.slice(p));
}

// "(C = 1)" after a learner's name
function params(L) {
  const p = Object.entries(L.params || {});
  return p.length ? " (" + p.map(([k, v]) => `${k} = ${fmt(v)}`).join(", ") + ")" : "";
}

// the mistakes among trials 0 … t
function mistakesBy(L, t) {
  let lo = 0, hi = L.mistake_trials.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (L.mistake_trials[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// w and b of the weights (bias last when it is folded in): the report's data, whatever is edited
function splitOnline(v) {
  return split({ d: state.data.data.d, fitIntercept: state.data.fit_intercept }, v);
}
