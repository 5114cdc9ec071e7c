// View 6: edit mode.  Click to add a point of either class, drag to move, delete; the page's
// PLA (pla.js) re-runs and views 1–3 show the edited points.  R is exact; γ* would need the
// QP, so the PLA's own margin stands in, labelled as the lower bound it is.  Export as CSV to
// feed the points back to `perceptrons report`.

const viewEdit = {
  points: [],
  undo: [],
  cross: null,
  drag: null,
  result: null,

  init() {
    const chart = $("#edit-chart");
    chart.addEventListener("pointerdown", (e) => this.pointerDown(e));
    chart.addEventListener("pointermove", (e) => this.pointerMove(e));
    chart.addEventListener("pointerup", (e) => this.pointerUp(e));
    chart.addEventListener("pointercancel", (e) => this.pointerUp(e));
    chart.addEventListener("keydown", (e) => this.key(e));
    chart.addEventListener("focus", () => this.draw());
    chart.addEventListener("blur", () => this.draw());
    $("#edit-bias").addEventListener("change", () => this.changed());
    $("#edit-epochs").addEventListener("change", () => this.changed());
    this.reset();
  },

  // the report's points (state.data), as at the page's load; the listeners stay
  reset() {
    const D = state.data.data;
    this.domain = D.d === 2 ? D.domain : [-1, 1, -1, 1];
    this.points = D.d === 2 ? D.X.map((x, i) => ({ x: x.slice(), y: D.y[i] })) : [];
    this.undo = [];
    this.cross = [(this.domain[0] + this.domain[1]) / 2, (this.domain[2] + this.domain[3]) / 2];
    $("#edit-bias").checked = state.data.fit_intercept;
    setText('[data-q="label-pos"]', classLabel(D.labels, 1));
    setText('[data-q="label-neg"]', classLabel(D.labels, -1));
    $("#edit-explain").textContent =
      (D.d === 2 ? "These are the report's points. " : `The report's data have ${D.d} features; edit mode works in 2-D, so it starts empty. `) +
      "Add, drag and delete points; the page's own PLA — cyclic order, w = 0 at the start, a mistake when y·(w·x + b) ≤ 0 — " +
      "re-runs, and views 1–3 follow. R is exact; γ* needs a quadratic program the page does not have, so it shows the PLA's own " +
      "margin γ_PLA, which is a lower bound on γ*.";
    this.build();
    // a large inseparable set would cost the page's load a long PLA run: it waits for a click
    if (this.points.length <= 400) this.run(false);
    else this.readout();
  },

  build() {
    this.chart = new Chart($("#edit-chart"), {
      xDomain: this.domain.slice(0, 2), yDomain: this.domain.slice(2), xLabel: "x₁", yLabel: "x₂", square: true,
      maxHeight: 480, label: "Editing plane",
    });
    // the plane as drawn (equal units widen one axis): every visible spot can take a point
    this.box = this.chart.x.domain.concat(this.chart.y.domain);
    this.draw();
  },

  options() {
    const epochs = clamp(Math.round(Number($("#edit-epochs").value) || 1000), 1, 100000);
    $("#edit-epochs").value = epochs;
    return { fitIntercept: $("#edit-bias").checked, maxEpochs: epochs };
  },

  // the PLA on the current points; `show`: views 1–3 switch to them
  run(show) {
    const { fitIntercept, maxEpochs } = this.options();
    this.result = this.points.length ? editSource(this.points, fitIntercept, maxEpochs, state.data.data.labels) : null;
    this.draw();
    this.readout();
    if (show && this.result) setSource(this.result, this.result.K);
  },

  changed() {
    if ($("#edit-auto").checked) this.run(true);
    else {
      this.result = null;
      this.draw();
      this.readout();
    }
  },

  edit(fn) {
    this.undo.push(this.points.map((p) => ({ x: p.x.slice(), y: p.y })));
    if (this.undo.length > 200) this.undo.shift();
    fn();
    this.changed();
  },

  readout() {
    const r = this.result, pts = this.points;
    const npos = pts.filter((p) => p.y > 0).length;
    const rows = [["points", `${pts.length} (${npos} +1, ${pts.length - npos} ${MINUS}1)`]];
    let status = "";
    if (r) {
      rows.push(["R (exact)", fmt(r.R)], ["PLA updates", String(r.K)], ["epochs", `${r.nEpochs}${r.converged ? ", converged" : ", not converged"}`]);
      if (r.sep) {
        rows.push(["γ_PLA", h("span", {}, fmt(r.sep.gamma), " ", h("small", {}, "the PLA's own margin: a lower bound on γ*"))]);
        rows.push(["(R/γ_PLA)²", h("span", {}, fmt(r.bound), " ", h("small", {}, `≥ (R/γ*)² ≥ the ${r.K} mistake${r.K === 1 ? "" : "s"}`))]);
        status = `Separated after ${r.K} update${r.K === 1 ? "" : "s"}.`;
      } else {
        status = `No separator after ${r.nEpochs} epochs: the points may not be linearly separable` +
          (r.fitIntercept ? "." : " by a line through the origin (try the bias).");
      }
    } else status = pts.length ? "Press “Run the PLA”." : "Click on the plane to add points.";
    $("#edit-readout").replaceChildren(...rows.flatMap(([a, v]) => [h("dt", {}, a), h("dd", {}, v)]));
    $("#edit-status").textContent = status;
  },

  draw() {
    const c = this.chart;
    c.back.textContent = "";
    c.stat.textContent = "";
    c.dyn.textContent = "";
    const r = this.result;
    if (r && r.K) {
      const [w, b] = split(r, r.weightsAfter(r.K));
      if (w[0] !== 0 || w[1] !== 0) {
        s("polygon", { points: c.halfPlane(w, b, true), class: "shade-pos" }, c.back);
        s("polygon", { points: c.halfPlane(w, b, false), class: "shade-neg" }, c.back);
        if (r.sep) {
          const [u, ub] = split(r, r.sep.v), g = r.sep.gamma;
          s("polygon", { points: c.region([[u, ub + g], [[-u[0], -u[1]], -ub + g]]), class: "band-mm" }, c.back);
        }
        c.hyperplane(w, b, "line-cur", c.stat);
      }
    }
    this.points.forEach((p, i) => {
      c.marker(c.x(p.x[0]), c.y(p.x[1]), p.y, 5.5, "", c.stat);
      if (this.drag && this.drag.index === i) s("circle", { cx: c.x(p.x[0]), cy: c.y(p.x[1]), r: 10, class: "ring-hit" }, c.stat);
    });
    if (document.activeElement === $("#edit-chart")) {
      const [px, py] = [c.x(this.cross[0]), c.y(this.cross[1])];
      s("path", { d: `M${px - 9},${py}H${px + 9}M${px},${py - 9}V${py + 9}`, class: "cross" }, c.dyn);
    }
  },

  at(e) {
    const rect = this.chart.svg.getBoundingClientRect();
    const px = e.clientX - rect.left, py = e.clientY - rect.top;
    const hitR = e.pointerType === "touch" ? 22 : 12;
    let best = -1, bestD = hitR;
    this.points.forEach((p, i) => {
      const dd = Math.hypot(this.chart.x(p.x[0]) - px, this.chart.y(p.x[1]) - py);
      if (dd < bestD) [best, bestD] = [i, dd];
    });
    const [x0, x1, y0, y1] = this.box;
    return { hit: best, x: [clamp(this.chart.x.invert(px), x0, x1), clamp(this.chart.y.invert(py), y0, y1)] };
  },

  pointerDown(e) {
    if (e.button !== undefined && e.button !== 0) return;
    e.preventDefault();
    $("#edit-chart").focus({ preventScroll: true });
    const { hit, x } = this.at(e);
    const tool = $('input[name="tool"]:checked').value;
    if (tool === "delete") {
      if (hit >= 0) this.edit(() => this.points.splice(hit, 1));
      return;
    }
    if (hit >= 0) {
      this.undo.push(this.points.map((p) => ({ x: p.x.slice(), y: p.y })));
      this.drag = { index: hit, moved: false };
      $("#edit-chart").setPointerCapture(e.pointerId);
      this.draw();
      return;
    }
    this.edit(() => this.points.push({ x, y: tool === "pos" ? 1 : -1 }));
  },

  pointerMove(e) {
    if (!this.drag) return;
    this.points[this.drag.index].x = this.at(e).x;
    this.drag.moved = true;
    // the edit plane follows the drag at once; views 1–3 when the point is let go
    const { fitIntercept, maxEpochs } = this.options();
    this.result = editSource(this.points, fitIntercept, maxEpochs, state.data.data.labels);
    this.draw();
    this.readout();
  },

  pointerUp() {
    if (!this.drag) return;
    const moved = this.drag.moved;
    this.drag = null;
    if (moved) this.changed();
    else {
      this.undo.pop();
      this.draw();
    }
  },

  key(e) {
    const [x0, x1, y0, y1] = this.box;
    const step = (e.shiftKey ? 0.1 : 0.02) * Math.max(x1 - x0, y1 - y0);
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    if (moves[e.key]) {
      this.cross = [clamp(this.cross[0] + moves[e.key][0], x0, x1), clamp(this.cross[1] + moves[e.key][1], y0, y1)];
      this.draw();
    } else if ("pP+=".includes(e.key) || "nN-".includes(e.key)) {
      const y = "pP+=".includes(e.key) ? 1 : -1;
      this.edit(() => this.points.push({ x: this.cross.slice(), y }));
    } else if (e.key === "Delete" || e.key === "Backspace") {
      let best = -1, bestD = Infinity;
      this.points.forEach((p, i) => {
        const dd = Math.hypot(p.x[0] - this.cross[0], p.x[1] - this.cross[1]);
        if (dd < bestD) [best, bestD] = [i, dd];
      });
      if (best >= 0) this.edit(() => this.points.splice(best, 1));
    } else if (e.key === "Enter") this.run(true);
    else return;
    e.preventDefault();
    e.stopPropagation();
  },

  act(name) {
    if (name === "edit-run") this.run(true);
    else if (name === "edit-undo" && this.undo.length) {
      this.points = this.undo.pop();
      this.changed();
    } else if (name === "edit-clear") this.edit(() => (this.points = []));
    else if (name === "edit-reset") {
      const D = state.data.data;
      this.edit(() => (this.points = D.d === 2 ? D.X.map((x, i) => ({ x: x.slice(), y: D.y[i] })) : []));
    } else if (name === "edit-csv") this.download();
  },

  csv() {
    const labels = state.data.data.labels;
    const q = (t) => (/[",\n\r]/.test(t) ? '"' + t.replace(/"/g, '""') + '"' : t);
    // shortest round-trip decimals, as Python's repr writes them: the CSV reads back exactly
    return "x1,x2,label\n" + this.points.map((p) => `${p.x[0]},${p.x[1]},${q(labels[p.y > 0 ? 1 : 0])}`).join("\n") + "\n";
  },

  download() {
    const url = URL.createObjectURL(new Blob([this.csv()], { type: "text/csv" }));
    const a = h("a", { href: url, download: "points.csv" });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  },
};
