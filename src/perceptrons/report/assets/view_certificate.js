// View 4: the exact separability certificate (a separator, or two convex combinations that
// coincide, drawn in 2-D), the Freund–Schapire bound at its best γ, and the training error per
// epoch of the PLA, pocket, averaged and voted perceptrons (Succinctly, Figure 18).  Python's
// numbers for the report's data; they do not follow edit mode.

function convexHull(points) {
  // Andrew's monotone chain; points [[x, y], ...] -> hull in counter-clockwise order
  const p = points.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (p.length < 3) return p;
  const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower = [], upper = [];
  for (const q of p) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], q) <= 0) lower.pop();
    lower.push(q);
  }
  for (const q of p.slice().reverse()) {
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], q) <= 0) upper.pop();
    upper.push(q);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

const viewCertificate = {
  build() {
    const data = state.data, th = data.theory, cert = th.certificate, D = data.data;
    const labels = D.labels;
    const explain = $("#cert-explain");
    const legend = $("#cert-legend");
    legend.textContent = "";
    $("#cert-table").textContent = "";
    const box = $("#cert-chart");
    box.textContent = "";
    const chart = D.d === 2 ? new Chart(box, {
      xDomain: D.domain.slice(0, 2), yDomain: D.domain.slice(2), xLabel: "x₁", yLabel: "x₂", square: true, maxHeight: 440,
      label: "The separability certificate drawn over the data",
    }) : null;
    if (cert.separable) {
      $("#cert-title").textContent = "The certificate: a separator";
      explain.textContent =
        `These data are separable. theory.is_separable proves it the direct way, with a hyperplane that puts every example ` +
        `on its side (found by ${cert.method}; smallest margin ${fmt(cert.margin)}). So the PLA converges — views 2 and 3 — ` +
        "and every curve below reaches zero.";
      if (chart) {
        for (const i of drawnIndices(D.n)) chart.marker(chart.x(D.X[i][0]), chart.y(D.X[i][1]), D.y[i], 4.4, "", chart.stat);
        chart.hyperplane(cert.coef, cert.intercept, "line-cur");
        legend.append(legendItem("", "var(--cur)", "the certificate's separator"));
      }
    } else this.drawWitness(chart, explain, legend);
    this.buildBounds();
    this.buildErrors();
  },

  drawWitness(chart, explain, legend) {
    const data = state.data, cert = data.theory.certificate, D = data.data, labels = D.labels;
    $("#cert-title").textContent = "The certificate: two convex combinations that coincide";
    const m = cert.examples.length;
    const through = !data.fit_intercept;
    explain.textContent =
      `No hyperplane separates these data, and here is the proof (Farkas' lemma; Har-Peled §30.1): with the weights λ below, ` +
      `a convex combination of ${classLabel(labels, 1)} examples ` +
      (through ? `and one of ${classLabel(labels, -1)} examples lie on one ray from the origin, which no hyperplane through the origin can put on two sides.`
        : `equals a convex combination of ${classLabel(labels, -1)} examples — a point inside both convex hulls, which no hyperplane can put on two sides.`) +
      ` theory.is_separable found the multipliers (${cert.method}); Carathéodory's reduction leaves ${m} example${m === 1 ? "" : "s"}.` +
      ` Residual ‖Σλᵢyᵢzᵢ‖/R = ${fmt(cert.residual, 2)}.`;
    const rows = cert.examples.map((i, j) => h("tr", {},
      h("td", {}, String(i + 1)), h("td", {}, classLabel(D.labels, D.y[i])), h("td", {}, vec(D.X[i])), h("td", {}, fmt(cert.multipliers[j]))));
    const pp = cert.positive_point, qq = cert.negative_point;
    $("#cert-table").append(h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, "example"), h("th", {}, "class"), h("th", {}, "x"), h("th", {}, "λ"))),
      h("tbody", {}, rows)),
      h("p", { class: "explain small" },
        (pp ? `Σλx/Σλ over the ${classLabel(labels, 1)} examples = ${vec(pp)}` : `the ${classLabel(labels, 1)} examples carry no weight`) + "; " +
        (qq ? `over the ${classLabel(labels, -1)} examples = ${vec(qq)}.` : `the ${classLabel(labels, -1)} examples carry no weight.`)));
    if (!chart) return;
    for (const i of drawnIndices(D.n)) chart.marker(chart.x(D.X[i][0]), chart.y(D.X[i][1]), D.y[i], 4, "pt-faint", chart.stat);
    const P = (v) => [chart.x(v[0]), chart.y(v[1])];
    for (const sign of [1, -1]) {
      const idx = cert.examples.filter((i) => D.y[i] === sign);
      if (!idx.length) continue;
      const hull = convexHull(idx.map((i) => P(D.X[i])));
      if (hull.length >= 2) s("polygon", { points: hull.map((p) => p.join(",")).join(" "), class: sign > 0 ? "hull-pos" : "hull-neg" }, chart.stat);
    }
    const common = pp || qq;
    if (through) {
      const far = pp && qq ? (norm(pp) >= norm(qq) ? pp : qq) : common;
      const o = P([0, 0]), f = P(far);
      s("line", { x1: o[0], y1: o[1], x2: o[0] + (f[0] - o[0]) * 3, y2: o[1] + (f[1] - o[1]) * 3, class: "spoke" }, chart.stat);
      s("circle", { cx: o[0], cy: o[1], r: 3, class: "witness" }, chart.stat);
    }
    cert.examples.forEach((i, j) => {
      const [px, py] = P(D.X[i]);
      const own = D.y[i] > 0 ? pp : qq;
      if (own) {
        const [cx, cy] = P(own);
        s("line", { x1: px, y1: py, x2: cx, y2: cy, class: "spoke" }, chart.stat);
      }
      chart.marker(px, py, D.y[i], 6, "", chart.stat);
      // labels go over the frame (unclipped), turned inwards near the right edge
      const right = px > chart.m.left + chart.iw - 70;
      s("text", { x: right ? px - 9 : px + 9, y: py - 7, "text-anchor": right ? "end" : "start", class: "label-w" }, chart.over)
        .textContent = "λ=" + fmt(cert.multipliers[j], 3);
    });
    for (const v of [pp, qq]) {
      if (!v) continue;
      const [cx, cy] = P(v);
      const r = 7;
      const star = [];
      for (let a = 0; a < 10; a++) {
        const rr = a % 2 ? r * 0.45 : r * 1.25, ang = -Math.PI / 2 + (a * Math.PI) / 5;
        star.push(`${(cx + rr * Math.cos(ang)).toFixed(1)},${(cy + rr * Math.sin(ang)).toFixed(1)}`);
      }
      s("polygon", { points: star.join(" "), class: "witness" }, chart.stat);
    }
    legend.append(
      legendItem("box", "var(--pos)", `the weighted ${classLabel(labels, 1)} examples and their hull`),
      legendItem("box", "var(--neg)", `the weighted ${classLabel(labels, -1)} examples and their hull`),
      legendItem("mark", "var(--bad)", through ? "the two combinations (one ray)" : "the common point"),
    );
  },

  buildBounds() {
    const data = state.data, th = data.theory, fs = th.freund_schapire, mm = th.max_margin;
    const rd = $("#fs-readout");
    const rows = [["R", fmt(th.R)]];
    if (fs) {
      $("#fs-explain").textContent =
        "For any unit u and γ > 0, with deviations dᵢ = max(0, γ − yᵢ u·zᵢ) and D = √Σdᵢ², one online pass of the " +
        "perceptron makes at most ((R + D)/γ)² mistakes (Gormley's Theorem 2, Freund & Schapire 1999). Below: the u that " +
        "minimises the bound (theory.fs_optimal_direction) at its best γ (theory.best_gamma).";
      const ok = fs.one_pass_mistakes <= fs.bound;
      rows.push(["best u", vec(fs.u)], ["γ", fmt(fs.gamma)], ["D", fmt(fs.D)],
        ["((R + D)/γ)²", fmt(fs.bound)],
        ["one pass of the PLA", `${fs.one_pass_mistakes} mistakes ${ok ? "≤" : ">"} the bound ${ok ? "✓" : "✗"}`]);
    } else {
      $("#fs-explain").textContent =
        "The Freund–Schapire bound ((R + D)/γ)² holds for any data. On separable data its best choice is u = w*, γ = γ* " +
        "and D = 0: the Block–Novikoff bound (R/γ*)².";
      rows.push(["γ*", fmt(mm.gamma)], ["D", "0"], ["(R/γ*)²", fmt(mm.bound)], ["PLA mistakes", String(data.trace.n_updates)]);
    }
    rd.replaceChildren(...rows.flatMap(([a, v]) => [h("dt", {}, a), h("dd", {}, v)]));
  },

  buildErrors() {
    const E = state.data.epochs, n = state.data.data.n;
    const series = [["perceptron", "PLA (last weights)", "var(--cur)", ""], ["pocket", "pocket (ratchet)", "var(--mm)", "dash"],
      ["averaged", "averaged", "var(--pos)", ""], ["voted", "voted", "var(--neg)", "dot"]];
    const len = Math.max(...series.map(([k]) => E[k].length));
    let top = 0;
    for (const [k] of series) top = Math.max(top, arrMax(E[k]) / n);
    const chart = new Chart($("#epochs-chart"), {
      xDomain: [1, Math.max(2, len)], yDomain: [0, Math.max(0.02, top * 1.1)], xLabel: "epoch", yLabel: "training error",
      aspect: 0.55, maxHeight: 280, label: "Training error per epoch of four perceptrons",
    });
    const legend = $("#epochs-legend");
    legend.textContent = "";
    for (const [k, name, color, dash] of series) {
      const ys = E[k].map((e) => e / n);
      chart.path(ys.map((_, i) => i + 1), ys, "series s-" + k);
      const last = E[k][E[k].length - 1];
      legend.append(legendItem(dash, color, `${name}: ${fmt(last / n)} after ${E[k].length} epoch${E[k].length === 1 ? "" : "s"}`));
    }
  },
};
