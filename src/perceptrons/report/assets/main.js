// Start-up: read the embedded numbers, draw the views, wire the keys, the hash and the hooks
// the browser tests (and curious readers, from the console) use: window.perceptronReport.

// The header cards: Python's figures for the report's data, or, in edit mode, the page's own
// for the edited points (R exact; the PLA's margin γ_PLA standing in for γ*, which needs a QP).
function facts(data, src) {
  const th = data.theory, t = data.trace, D = data.data;
  let rows;
  if (src && src.kind === "edit") {
    const sep = src.sep;
    rows = [
      ["examples (edited)", `${src.X.length} × 2`, "n"],
      ["separable", sep ? "yes" : "not found", "separable", sep ? "yes" : "no"],
      ["R", fmt(src.R), "R"],
    ];
    if (sep) rows.push(["γ_PLA ≤ γ*", fmt(sep.gamma), "gamma"], ["(R/γ_PLA)²", fmt((src.R / sep.gamma) ** 2), "bound"]);
    rows.push(["PLA mistakes", String(src.K), "mistakes"],
      ["epochs", `${src.nEpochs}${src.converged ? "" : " (not converged)"}`, "epochs"]);
  } else {
    rows = [
      ["examples", `${D.n} × ${D.d}`, "n"],
      ["separable", th.separable ? "yes" : "no", "separable", th.separable ? "yes" : "no"],
      ["R", fmt(th.R), "R"],
    ];
    if (th.max_margin) {
      rows.push(["γ*", fmt(th.max_margin.gamma), "gamma"], ["(R/γ*)²", fmt(th.max_margin.bound), "bound"]);
    } else {
      rows.push(["F–S bound, one pass", fmt(th.freund_schapire.bound), "fs-bound"]);
    }
    rows.push(["PLA mistakes", String(t.n_updates), "mistakes"],
      ["epochs", `${t.n_epochs}${t.converged ? "" : " (not converged)"}`, "epochs"]);
  }
  $("#facts").replaceChildren(...rows.map(([k, v, q, cls]) => h("div", {}, h("dt", {}, k), h("dd", { "data-q": q, class: cls }, v))));
  const classes = `${classLabel(D.labels, 1)} and ${classLabel(D.labels, -1)}`;
  $("#lede").textContent =
    `The Perceptron Learning Algorithm on ${D.n} examples with ${D.d} feature${D.d === 1 ? "" : "s"} and classes ${classes}` +
    `${data.fit_intercept ? ", bias folded in as x₀ = 1" : ", no bias (through the origin)"}: ` +
    "one update at a time, with the theory of its convergence drawn live.";
  $("#foot").textContent =
    `Made by perceptrons ${data.library_version} (model: ${data.model}). Every number was computed by the library in Python ` +
    "and is embedded in this file; only edit mode runs the PLA in the page. Nothing is fetched from a network.";
}

function goto(id) {
  const sec = document.getElementById(id);
  sec.scrollIntoView({ behavior: "smooth", block: "start" });
  $("h2", sec).focus({ preventScroll: true });
}

function onKey(e) {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
  const t = e.target;
  // the slider, text fields, menus and the edit plane keep their own keys
  if (t.closest && t.closest("input, select, textarea, .edit-canvas")) return;
  const k = state.step;
  const moves = { ArrowRight: k + 1, ArrowLeft: k - 1, Home: 0, End: state.src.K, PageUp: k - 10, PageDown: k + 10 };
  if (e.key in moves) {
    if (state.playing) player.toggle(false);
    setStep(moves[e.key]);
  } else if (e.key === " " && !(t.closest && t.closest("button, a"))) player.toggle();
  else return;
  e.preventDefault();
}

function act(name) {
  const k = state.step;
  if (name === "prev") setStep(k - 1);
  else if (name === "next") setStep(k + 1);
  else if (name === "first") setStep(0);
  else if (name === "last") setStep(state.src.K);
  else if (name === "play") return player.toggle();
  else if (name === "restore-source") return setSource(state.python, stepFromHash() || 0);
  else if (name.startsWith("edit-")) return viewEdit.act(name);
  else if (name.startsWith("online-")) return viewOnline.act(name);
  if (state.playing && name !== "play") player.toggle(false);
}

// The report of one two-class problem (of several, for multiclass data: one a class against
// the rest) into every view.
function load(data, first, initial) {
  state.data = data;
  state.python = pythonSource(data);
  facts(data);
  state.views = [viewData, viewStep, viewProof];
  viewCertificate.build();
  viewRuns.build();
  state.src = state.python;
  setSource(state.python, first === null ? 0 : first);
  if (initial) {
    viewEdit.init();
    viewOnline.init();
  } else viewEdit.reset();
  viewOnline.reset();
}

// Multiclass data: a menu in the header picks the class shown against the rest.
function classPicker(classes) {
  const select = h("select", { id: "class-pick", "aria-label": "The class shown against the rest" },
    ...classes.map((c, i) => h("option", { value: String(i) }, c)));
  select.addEventListener("change", () => pickClass(Number(select.value)));
  $(".masthead h1").after(h("p", { class: "class-pick" },
    `${classes.length} classes: each is shown against the rest, as a multiclass perceptron's weight vectors face them. Class `,
    select, " against the rest."));
}

function pickClass(i) {
  if (state.playing) player.toggle(false);
  $("#class-pick").value = String(i);
  load(state.reports[i], 0, false);
}

function start() {
  const page = JSON.parse($("#report-data").textContent);
  if (page.schema !== 1) throw new Error("report data of an unknown format: " + page.schema);
  state.reports = page.one_vs_rest || [page];
  if (page.one_vs_rest) classPicker(page.classes);
  load(state.reports[0], stepFromHash(), true);
  document.addEventListener("keydown", onKey);
  document.addEventListener("click", (e) => {
    const b = e.target.closest("[data-act]");
    if (b) act(b.dataset.act);
    const a = e.target.closest("[data-goto]");
    if (a) {
      e.preventDefault(); // the address keeps the step, not a section
      goto(a.dataset.goto);
    }
  });
  $("#slider").addEventListener("input", (e) => setStep(e.target.value));
  window.addEventListener("hashchange", () => {
    const k = stepFromHash();
    if (k !== null && state.src.kind === "python" && k !== state.step) setStep(k);
  });
  onResize(() => {
    for (const v of state.views) v.build(state.src);
    viewCertificate.build();
    viewRuns.build();
    viewEdit.build();
    viewOnline.build();
    setStep(state.step, true);
  });
}

start();

// Hooks for the browser tests and the console; they only read or drive what the buttons do.
window.perceptronReport = {
  runPLA,
  data: () => state.data,
  classes: () => state.reports.length,
  pickClass: (i) => pickClass(i),
  step: () => state.step,
  setStep: (k) => setStep(k),
  source: () => state.src.kind,
  steps: () => state.src.K,
  weightsAfter: (k) => Array.from(state.src.weightsAfter(k)),
  traceLine: (k) => traceLine(state.src, k),
  formatTrace: (v) => num(v),
  online: {
    select: (key) => viewOnline.select(key),
    setStep: (k) => viewOnline.setStep(k),
    step: () => viewOnline.k,
    line: () => $("#online-line").textContent,
    arowSigma: (k) => arowSigma(state.data.online.learners.find((L) => L.key === "arow"), k),
  },
  setEditPoints(points, options) {
    const o = options || {};
    viewEdit.points = points.map((p) => ({ x: [Number(p[0]), Number(p[1])], y: p[2] > 0 ? 1 : -1 }));
    if (o.fitIntercept !== undefined) $("#edit-bias").checked = !!o.fitIntercept;
    if (o.maxEpochs !== undefined) $("#edit-epochs").value = o.maxEpochs;
    viewEdit.run(false);
  },
  editTrace() {
    const r = viewEdit.result;
    return r ? r.run : null;
  },
  csv: () => viewEdit.csv(),
  // one step's render: the views' DOM work plus the layout it forces, in milliseconds
  timeStep(k) {
    const t0 = performance.now();
    setStep(k, true);
    void document.body.offsetHeight;
    return performance.now() - t0;
  },
};
