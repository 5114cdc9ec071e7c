// View 3: the convergence proof's quantities per update k against their bounds.  After k
// updates the weights are w_{k+1}; with a unit separator u of margin γ and R = max‖z‖:
//   Claim 1   u·w_{k+1} >= kγ           Claim 2   ‖w_{k+1}‖ <= √k·R
//   Corollary cos∠(w_{k+1}, u) >= √k·γ/R, and cos <= 1 gives the theorem k <= (R/γ)².

const DRAWN = 400; // buckets of a drawn curve (each keeps its low and high point)

// keys: [[measured, colour], [bound or null]]
function proofCard(id, title, claim, cite, keys) {
  const chart = h("div", { class: "chart", id: id + "-chart" });
  const now = h("p", { class: "now", id: id + "-now" });
  const legend = h("ul", { class: "legend" }, legendItem("", keys[0][1], keys[0][0]), keys[1] ? legendItem("dash", "var(--bad)", keys[1]) : null);
  return {
    card: h("div", { class: "proof-card" }, h("h3", {}, title), h("p", { class: "claim", html: claim }), chart, legend, now, h("p", { class: "cite", html: cite })),
    chart, now,
  };
}

function seriesChart(box, xs, ys, bound, opts) {
  const n = xs.length;
  const finite = ys.filter(Number.isFinite);
  let lo = Math.min(0, arrMin(finite)), hi = arrMax(finite);
  if (bound && opts.boundInRange !== false) for (const v of bound.ys) if (Number.isFinite(v)) hi = Math.max(hi, v);
  if (opts.yMax !== undefined) hi = Math.min(hi, opts.yMax);
  if (opts.yMin !== undefined) lo = Math.max(lo, opts.yMin);
  const chart = new Chart(box, {
    xDomain: [0, Math.max(1, xs[n - 1])], yDomain: padded(lo, hi, 0.05), xLabel: opts.xLabel, yLabel: opts.yLabel,
    aspect: 0.58, maxHeight: 300, label: opts.label,
  });
  if (bound) chart.path(bound.xs, bound.ys, "bound s-bound");
  const keep = decimate(n, ys, DRAWN);
  chart.path(keep.map((i) => xs[i]), keep.map((i) => ys[i]), "series s-claim");
  return chart;
}

function boundPoints(K, f) {
  // a smooth curve needs points where √k bends, near 0: quadratic spacing
  const out = { xs: [], ys: [] };
  const m = 200;
  for (let j = 0; j <= m; j++) {
    const k = K * (j / m) * (j / m);
    out.xs.push(k);
    out.ys.push(f(k));
  }
  return out;
}

const viewProof = {
  build(src) {
    const box = $("#proof-charts");
    box.textContent = "";
    this.cards = {};
    const K = src.K;
    const ks = Array.from({ length: K + 1 }, (_, k) => k);
    const sep = src.sep;
    const gName = sep ? (sep.lowerBound ? "γ_PLA" : "γ*") : "γ";
    const uName = sep ? (sep.lowerBound ? "u" : "w*") : "w*";
    const explain = $("#proof-explain");
    if (sep && !sep.lowerBound) {
      explain.textContent =
        `w* is the max-margin separator (theory.max_margin: unit length${src.fitIntercept ? ", bias folded in" : ""}), ` +
        `γ* = ${fmt(sep.gamma)} its margin and R = ${fmt(src.R)} the largest ‖z‖. Each update adds at least γ* to w*·w ` +
        "and at most R² to ‖w‖², so kγ* ≤ w*·w ≤ ‖w‖ ≤ √k·R, and the PLA makes at most (R/γ*)² mistakes. Red dashed curves are the bounds; the dot follows the step.";
    } else if (sep) {
      explain.textContent =
        `For your points the page has no QP for γ*; any separator's margin gives the same argument. u is the PLA's final direction ` +
        `and γ_PLA = ${fmt(sep.gamma)} its margin — a lower bound on γ*, so (R/γ_PLA)² = ${fmt(src.bound)} bounds the mistakes less tightly than (R/γ*)² would.`;
    } else {
      explain.textContent =
        "No hyperplane separates these data, so there is no w* to measure against: Claim 1 and the theorem do not apply and " +
        "the PLA never stops. Claim 2 needs no separator — it holds on every run — and the mistakes grow without bound; " +
        "in one pass, Freund and Schapire bound them (view 4).";
    }
    if (sep) {
      const dots = [0].concat(src.dot);
      const c = proofCard("claim1", `Claim 1: ${uName}·w grows by at least ${gName} per update`, `${uName}·w<sub>k+1</sub> ≥ k·${gName}`,
        "Liang, Claim 1 (W*·W<sub>t+1</sub> ≥ W*·W<sub>t</sub> + min<sub>j</sub> y<sub>j</sub>W*·X<sub>j</sub>); Gormley, proof Part 1; Kalyanakrishnan, Theorem 3.",
        [[`${uName}·w, measured`, "var(--accent)"], `k·${gName}, the bound`]);
      box.append(c.card);
      c.plot = seriesChart(c.chart, ks, dots, boundPoints(K, (k) => k * sep.gamma), { xLabel: "updates k", yLabel: `${uName}·w`, label: "Claim 1 chart" });
      c.f = (k) => {
        const ok = dots[k] >= k * sep.gamma * (1 - 1e-9) - 1e-12;
        return [dots[k], `k = ${k}: ${uName}·w${sub(k + 1)} = <b>${fmt(dots[k])}</b> ${ok ? "≥" : "<"} k·${gName} = ${fmt(k * sep.gamma)} <span class="${ok ? "ok" : "fail"}">${ok ? "✓" : "✗"}</span>`];
      };
      this.cards.claim1 = c;
    }
    const norms = [0].concat(src.norm);
    const c2 = proofCard("claim2", "Claim 2: ‖w‖² grows by at most R² per update", "‖w<sub>k+1</sub>‖ ≤ √k·R",
      "Liang, Claim 2 (‖W<sub>t+1</sub>‖² ≤ ‖W<sub>t</sub>‖² + max<sub>j</sub>‖X<sub>j</sub>‖²); Gormley, proof Part 2.",
      [["‖w‖, measured", "var(--accent)"], "√k·R, the bound"]);
    box.append(c2.card);
    c2.plot = seriesChart(c2.chart, ks, norms, boundPoints(K, (k) => Math.sqrt(k) * src.R), { xLabel: "updates k", yLabel: "‖w‖", label: "Claim 2 chart" });
    c2.f = (k) => {
      const ok = norms[k] <= Math.sqrt(k) * src.R * (1 + 1e-9) + 1e-12;
      return [norms[k], `k = ${k}: ‖w${sub(k + 1)}‖ = <b>${fmt(norms[k])}</b> ${ok ? "≤" : ">"} √k·R = ${fmt(Math.sqrt(k) * src.R)} <span class="${ok ? "ok" : "fail"}">${ok ? "✓" : "✗"}</span>`];
    };
    this.cards.claim2 = c2;
    if (sep) {
      const cos = [0].concat(src.dot.map((d, j) => (norms[j + 1] ? d / norms[j + 1] : 0)));
      const c3 = proofCard("cosine", `Corollary: w turns towards ${uName}`, `cos∠(w<sub>k+1</sub>, ${uName}) ≥ √k·${gName}/R, and cos ≤ 1`,
        "Liang, Corollary 1 (cos θ ≥ √T·C, with C = γ/R when ‖W*‖ = 1).",
        [["cosine, measured", "var(--accent)"], `√k·${gName}/R, the bound`]);
      box.append(c3.card);
      c3.plot = seriesChart(c3.chart, ks, cos, boundPoints(K, (k) => Math.min(1.0, (Math.sqrt(k) * sep.gamma) / src.R)), {
        xLabel: "updates k", yLabel: "cosine", yMax: 1, yMin: -1, label: "Corollary chart",
      });
      c3.f = (k) => {
        const b = (Math.sqrt(k) * sep.gamma) / src.R;
        const ok = cos[k] >= b * (1 - 1e-9) - 1e-12;
        return [cos[k], `k = ${k}: cos = <b>${fmt(cos[k])}</b> ${ok ? "≥" : "<"} √k·${gName}/R = ${fmt(b)} <span class="${ok ? "ok" : "fail"}">${ok ? "✓" : "✗"}</span>`];
      };
      this.cards.cosine = c3;
    }
    const fs = src.kind === "python" ? src.fs : null;
    const tEnd = src.truncated || !src.converged ? (K ? src.t[K - 1] : 1) : src.nEpochs * src.n;
    if (sep) {
      this.mistakesCard(box, src, "mistakes", `The theorem: at most (R/${gName})² mistakes`,
        `mistakes ≤ (R/${gName})² = ${fmt(src.bound)}${sep.lowerBound ? " (≥ (R/γ*)²)" : ""}`,
        "Block–Novikoff: Har-Peled, Theorem 30.1.1; Gormley, Part 3; Kalyanakrishnan, Theorem 3.", src.bound, tEnd);
      return;
    }
    this.mistakesCard(box, src, "mistakes", "Without a separator, mistakes keep coming",
      "no bound on the whole run: every epoch finds mistakes", "Gormley: the perceptron will not converge on inseparable data.", null, tEnd);
    if (fs) {
      this.mistakesCard(box, src, "one-pass", "One pass: at most ((R + D)/γ)² mistakes",
        `the first ${src.n} visits make at most ((R+D)/γ)² = ${fmt(fs.bound)} mistakes (u, γ, D in view 4)`,
        "Freund &amp; Schapire (1999), Theorem 2, in Gormley's notes.", fs.bound, src.n);
    }
  },

  // cumulative mistakes against the examples visited, up to visit tMax, with the bound `limit`
  mistakesCard(box, src, id, title, claim, cite, limit, tMax) {
    let K = 0;
    while (K < src.K && src.t[K] <= tMax) K++;
    const xs = [0], ys = [0];
    for (let k = 1; k <= K; k++) {
      xs.push(src.t[k - 1], src.t[k - 1]); // a staircase: the count rises at the visit
      ys.push(k - 1, k);
    }
    xs.push(tMax);
    ys.push(K);
    const c = proofCard(id, title, claim, cite, [["mistakes of the PLA", "var(--cur)"], limit === null ? null : "the bound"]);
    box.append(c.card);
    // a bound far above the count would flatten the curve: then it is named, not drawn
    const inRange = limit !== null && limit <= 20 * Math.max(1, K);
    const chart = new Chart(c.chart, {
      xDomain: [0, Math.max(1, tMax)], yDomain: [0, Math.max(1, K, inRange ? limit : 0) * 1.08],
      xLabel: "examples visited", yLabel: "mistakes so far", aspect: 0.58, maxHeight: 300, label: title,
    });
    if (limit !== null && inRange) chart.hline(limit, "bound s-bound", chart.stat);
    else if (limit !== null) {
      s("text", { x: chart.m.left + chart.iw - 4, y: chart.m.top + 14, "text-anchor": "end", class: "offchart" }, chart.stat)
        .textContent = `bound ${fmt(limit)}: ${fmt(limit / Math.max(1, K), 3)}× above the top ↑`;
    }
    const keep = decimate(xs.length, ys, DRAWN);
    chart.path(keep.map((i) => xs[i]), keep.map((i) => ys[i]), "series s-pla");
    c.plot = chart;
    c.f = (k) => {
      const kk = Math.min(k, K); // past the chart's last visit, it shows its end
      const tk = kk ? src.t[kk - 1] : 0;
      const ok = limit === null || kk <= limit * (1 + 1e-9);
      return [kk, `after ${tk} visits: <b data-q="${id}-now">${kk}</b> mistake${kk === 1 ? "" : "s"}` +
        (limit !== null ? ` ${ok ? "≤" : ">"} ${fmt(limit)} <span class="${ok ? "ok" : "fail"}">${ok ? "✓" : "✗"}</span>` : ""), tk];
    };
    this.cards[id] = c;
  },

  update(src, k) {
    for (const c of Object.values(this.cards)) {
      const [v, html, xv] = c.f(k);
      c.plot.cursorAt(xv === undefined ? k : xv, v);
      c.now.innerHTML = html;
    }
  },
};
