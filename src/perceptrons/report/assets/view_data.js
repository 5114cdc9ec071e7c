// View 1: the data with the current hyperplane, the max-margin separator, its band and support
// examples; for d != 2 the margin distribution y·(w·z)/‖w‖ instead of a misleading projection.

// At most this many points are drawn (the rest are in the numbers, not on the screen).
const MAX_DRAWN = 3000;

function drawnIndices(n) {
  if (n <= MAX_DRAWN) return Array.from({ length: n }, (_, i) => i);
  const stride = n / MAX_DRAWN;
  return Array.from({ length: MAX_DRAWN }, (_, i) => Math.floor(i * stride));
}

function scatterDomain(src) {
  if (src.domain) return src.domain;
  let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const x of src.X) {
    x0 = Math.min(x0, x[0]); x1 = Math.max(x1, x[0]); y0 = Math.min(y0, x[1]); y1 = Math.max(y1, x[1]);
  }
  if (!Number.isFinite(x0)) return [-1, 1, -1, 1];
  return padded(x0, x1, 0.1).concat(padded(y0, y1, 0.1));
}

// The normal w, drawn from the foot of the perpendicular from the origin (Gormley: w is the
// hyperplane's normal; through the origin the arrow starts at 0).
function drawNormal(chart, w, b, parent) {
  const nw = Math.hypot(w[0], w[1]);
  if (nw === 0) return;
  const foot = [(-b * w[0]) / (nw * nw), (-b * w[1]) / (nw * nw)];
  const span = Math.min(chart.x.domain[1] - chart.x.domain[0], chart.y.domain[1] - chart.y.domain[0]);
  const len = span * 0.16;
  const tip = [foot[0] + (len * w[0]) / nw, foot[1] + (len * w[1]) / nw];
  const [fx, fy, tx, ty] = [chart.x(foot[0]), chart.y(foot[1]), chart.x(tip[0]), chart.y(tip[1])];
  s("line", { x1: fx, y1: fy, x2: tx, y2: ty, class: "arrow-w" }, parent);
  const ang = Math.atan2(ty - fy, tx - fx), a = 8;
  const pts = [[tx, ty], [tx - a * Math.cos(ang - 0.4), ty - a * Math.sin(ang - 0.4)], [tx - a * Math.cos(ang + 0.4), ty - a * Math.sin(ang + 0.4)]];
  s("polygon", { points: pts.map((p) => p.join(",")).join(" "), class: "arrow-head" }, parent);
  s("text", { x: tx + 6 * Math.cos(ang), y: ty + 6 * Math.sin(ang) + 4, class: "label-w" }, parent).textContent = "w";
}

// A voted perceptron's rule drawn from Python's grid of predictions: the edges between cells
// predicted differently.
function drawGridBoundary(chart, grid, domain, cls) {
  const G = Math.round(Math.sqrt(grid.length));
  const [x0, x1, y0, y1] = domain;
  const cx = (i) => chart.x(x0 + (i * (x1 - x0)) / G), cy = (j) => chart.y(y0 + (j * (y1 - y0)) / G);
  let d = "";
  for (let j = 0; j < G; j++) {
    for (let i = 0; i < G; i++) {
      const v = grid[j * G + i];
      if (i + 1 < G && grid[j * G + i + 1] !== v) d += `M${cx(i + 1).toFixed(1)},${cy(j).toFixed(1)}V${cy(j + 1).toFixed(1)}`;
      if (j + 1 < G && grid[(j + 1) * G + i] !== v) d += `M${cx(i).toFixed(1)},${cy(j + 1).toFixed(1)}H${cx(i + 1).toFixed(1)}`;
    }
  }
  return s("path", { d, class: cls }, chart.stat);
}

function drawSeparator(chart, sep, domain, cls) {
  if (sep.grid) return drawGridBoundary(chart, sep.grid, domain, cls);
  return chart.hyperplane(sep.coef, sep.intercept, cls);
}

const viewData = {
  build(src) {
    this.src = src;
    const box = $("#data-chart");
    const legend = $("#data-legend");
    legend.textContent = "";
    const labels = src.labels;
    const model = state.data.final;
    const sepName = src.sep ? (src.sep.lowerBound ? "the PLA's final separator, margin γ_PLA (a lower bound on γ*)" : "max-margin separator w* and its band ±γ*") : null;
    if (src.d !== 2) {
      this.chart = null;
      $("#data-explain").textContent =
        `These data have ${src.d} feature${src.d === 1 ? "" : "s"}, so there is no honest 2-D picture: a projection would ` +
        "show overlaps that do not exist. Instead, the histogram shows each example's margin y·(w·z)/‖w‖ under the current " +
        "weights: the PLA has separated the data once no bar is left of 0. " +
        (src.sep ? "The green line marks γ*, the largest margin any separator achieves." : "No hyperplane separates these data.");
      this.histTop = null;
      this.hist = new Chart(box, {
        xDomain: [-src.R * 1.02, src.R * 1.02], yDomain: [0, 1], xLabel: "margin y·(w·z)/‖w‖", yLabel: "examples",
        aspect: 0.7, maxHeight: 380, label: "Histogram of the examples' margins under the current weights",
      });
      legend.append(legendItem("box", "var(--pos)", "margin > 0 (correct)"), legendItem("box", "var(--bad)", "margin ≤ 0 (a mistake)"));
      if (src.sep) legend.append(legendItem("dash", "var(--mm)", src.sep.lowerBound ? "γ_PLA (≤ γ*)" : "γ* (max margin)"));
      return;
    }
    this.hist = null;
    $("#data-explain").innerHTML =
      "Each point is an example: <span class='swatch pos'></span>" + escapeHtml(classLabel(labels, 1)) + " is the positive class, " +
      "<span class='swatch neg'></span>" + escapeHtml(classLabel(labels, -1)) + " the negative one. The solid line is the PLA's current hyperplane w·x + b = 0 " +
      "with its normal w; the side it points to is predicted +1. The red ring marks the example that caused the update." +
      (src.fitIntercept ? "" : " No bias: every hyperplane passes through the origin.");
    const domain = scatterDomain(src);
    const chart = (this.chart = new Chart(box, {
      xDomain: domain.slice(0, 2), yDomain: domain.slice(2), xLabel: "x₁", yLabel: "x₂", square: true, maxHeight: 520,
      label: "Scatter plot of the examples with the current hyperplane",
    }));
    if (src.sep) {
      const [w, b] = split(src, src.sep.v);
      const g = src.sep.gamma;
      s("polygon", { points: chart.region([[w, b + g], [[-w[0], -w[1]], -b + g]]), class: "band-mm" }, chart.stat);
      chart.hyperplane(w, b, "line-mm");
    }
    if (src.kind === "python" && model.coef.length === 2) drawSeparator(chart, model, domain, "line-final");
    const sv = new Set(src.support);
    for (const i of drawnIndices(src.n)) {
      const px = chart.x(src.X[i][0]), py = chart.y(src.X[i][1]);
      chart.marker(px, py, src.y[i], 4.6, "", chart.stat);
      if (sv.has(i)) s("circle", { cx: px, cy: py, r: 8.5, class: "ring-sv" }, chart.stat);
    }
    legend.append(
      legendItem("mark", "var(--pos)", classLabel(labels, 1)),
      legendItem("square", "var(--neg)", classLabel(labels, -1)),
      legendItem("", "var(--cur)", "current hyperplane w_k"),
      legendItem("dot", "var(--cur)", "previous one"),
    );
    if (sepName) legend.append(legendItem("dash", "var(--mm)", sepName));
    if (src.support.length) legend.append(legendItem("ring", "var(--mm)", `support examples (${src.support.length})`));
    if (src.kind === "python") legend.append(legendItem("dot", "var(--final)", `final ${model.model} (${model.estimator})`));
    legend.append(legendItem("ring", "var(--bad)", "example of this update"));
  },

  update(src, k) {
    const w1 = src.weightsAfter(k);
    const [w, b] = split(src, w1);
    const readout = $("#data-readout");
    const rows = [
      ["Weights now", `w${sub(k + 1)} = ${vec(w)}` + (src.fitIntercept ? `, b = ${fmt(b)}` : "")],
      ["Training errors", `${src.errorsAt(k)} of ${src.n} examples`],
    ];
    if (k > 0) {
      const i = src.index[k - 1];
      rows.push(["This update", `example ${i + 1}, x = ${vec(src.X[i])}, y = ${src.y[i] > 0 ? "+1" : MINUS + "1"}`]);
    }
    if (src.sep) rows.push([src.sep.lowerBound ? "γ_PLA (≤ γ*)" : "γ*", fmt(src.sep.gamma)]);
    readout.replaceChildren(...rows.flatMap(([a, v]) => [h("dt", {}, a), h("dd", {}, v)]));
    if (this.hist) return this.updateHist(src, w1);
    const chart = this.chart;
    chart.back.textContent = "";
    chart.dyn.textContent = "";
    if (w[0] !== 0 || w[1] !== 0) {
      s("polygon", { points: chart.halfPlane(w, b, true), class: "shade-pos" }, chart.back);
      s("polygon", { points: chart.halfPlane(w, b, false), class: "shade-neg" }, chart.back);
    }
    if (k > 0) {
      const [wp, bp] = split(src, src.weightsAfter(k - 1));
      if (wp[0] !== 0 || wp[1] !== 0) chart.hyperplane(wp, bp, "line-prev", chart.dyn);
    }
    chart.hyperplane(w, b, "line-cur", chart.dyn);
    drawNormal(chart, w, b, chart.dyn);
    if (k > 0) {
      const x = src.X[src.index[k - 1]];
      s("circle", { cx: chart.x(x[0]), cy: chart.y(x[1]), r: 11, class: "ring-hit" }, chart.dyn);
    }
  },

  updateHist(src, w1) {
    const chart = this.hist;
    chart.dyn.textContent = "";
    const nw = norm(w1);
    const bins = 40, lo = chart.x.domain[0], hi = chart.x.domain[1];
    const counts = new Array(bins).fill(0);
    for (let i = 0; i < src.n; i++) {
      const m = nw ? (src.y[i] * dot(w1, src.Z[i])) / nw : 0;
      counts[clamp(Math.floor(((m - lo) / (hi - lo)) * bins), 0, bins - 1)]++;
    }
    const top = Math.max(1, ...counts);
    if (top !== this.histTop) chart.rescaleY(0, Math.max(4, top * 1.08));
    this.histTop = top;
    const ys = chart.y;
    for (let j = 0; j < bins; j++) {
      if (!counts[j]) continue;
      const a = lo + (j * (hi - lo)) / bins, c = lo + ((j + 1) * (hi - lo)) / bins;
      s("rect", {
        x: chart.x(a) + 0.5, width: Math.max(1, chart.x(c) - chart.x(a) - 1), y: ys(counts[j]),
        height: ys(0) - ys(counts[j]), class: c <= 0 ? "bar-bad" : a >= 0 ? "bar-ok" : "bar-bad",
      }, chart.dyn);
    }
    s("line", { x1: chart.x(0), x2: chart.x(0), y1: chart.m.top, y2: chart.m.top + chart.ih, class: "cursor" }, chart.dyn);
    if (src.sep) {
      const gx = chart.x(src.sep.gamma);
      s("line", { x1: gx, x2: gx, y1: chart.m.top, y2: chart.m.top + chart.ih, class: "line-mm" }, chart.dyn);
    }
    if (!nw) s("text", { x: chart.m.left + 6, y: chart.m.top + 14, class: "label-w" }, chart.dyn).textContent = "w = 0: every margin is 0";
  },
};

function escapeHtml(t) {
  return String(t).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}
