// View 5: four runs of the chosen model from random starts, each updating on a random
// misclassified example (Succinctly, Figure 19): four hyperplanes, their E_in and E_out.

const viewRuns = {
  build() {
    const data = state.data, R = data.runs, D = data.data;
    const test = new Set(R.test);
    const held = R.test.length;
    $("#runs-explain").textContent =
      `The ${data.model} trained four times on the same ${D.n - held} examples, seeds ${R.runs[0].seed}–${R.runs[3].seed}: ` +
      `random starting weights, and each update on a misclassified example drawn at random (up to ${R.steps} updates). ` +
      (held ? `E_in is the error on those examples, E_out on ${held} examples held out (filled markers: training, hollow: held out). ` : "") +
      (data.theory.separable ? "Zero training error does not make the hyperplanes equally good on new data: choosing among them is what max-margin methods do."
        : "No hyperplane reaches zero training error here, and runs that are equal in E_in can still differ out of sample.") +
      (held ? "" : " With so few examples none is held out, so E_out is not measured.");
    const box = $("#runs-chart");
    box.textContent = "";
    if (D.d === 2) {
      const chart = new Chart(box, {
        xDomain: D.domain.slice(0, 2), yDomain: D.domain.slice(2), xLabel: "x₁", yLabel: "x₂", square: true, maxHeight: 460,
        label: "Four runs, four hyperplanes",
      });
      for (const i of drawnIndices(D.n)) {
        chart.marker(chart.x(D.X[i][0]), chart.y(D.X[i][1]), D.y[i], 4.4, test.has(i) ? "hollow" : "", chart.stat);
      }
      R.runs.forEach((r, j) => drawSeparator(chart, r, D.domain, `line-run run${j}`));
    } else {
      box.append(h("p", { class: "explain" }, `With ${D.d} features the hyperplanes cannot be drawn; the table compares them.`));
    }
    const rows = R.runs.map((r, j) => h("tr", {},
      h("td", {}, h("span", { class: "key", style: `border-color:var(--run${j})` }), ` seed ${r.seed}`),
      h("td", {}, fmt(r.e_in)), h("td", {}, r.e_out === null ? "—" : fmt(r.e_out)),
      h("td", {}, String(r.n_updates)), h("td", {}, r.converged ? "yes" : "no")));
    $("#runs-table").replaceChildren(h("table", {},
      h("caption", { class: "explain small" }, "Errors are fractions of the examples."),
      h("thead", {}, h("tr", {}, h("th", {}, "run"), h("th", { html: "E<sub>in</sub>" }), h("th", { html: "E<sub>out</sub>" }),
        h("th", {}, "updates"), h("th", {}, "converged"))),
      h("tbody", {}, rows)));
  },
};
