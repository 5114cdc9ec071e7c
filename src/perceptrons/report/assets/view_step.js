// View 2: step, back, play/pause, a slider over the updates; the update's example, the line
// `perceptrons trace` prints for it (character for character), and w_k -> w_{k+1}.

// `perceptrons trace`'s vector: "(1, -2)" through the origin, "(1, -2; b=1)" with a bias
function traceVec(src, v) {
  const [w, b] = split(src, v);
  const body = w.map(num).join(", ");
  return src.fitIntercept ? `(${body}; b=${num(b)})` : `(${body})`;
}

function traceLine(src, k) {
  if (k === 0) return `w_1 = ${traceVec(src, src.weightsAfter(0))}`;
  const i = src.index[k - 1];
  const x = "(" + src.X[i].map(num).join(", ") + ")";
  const label = src.labels[src.y[i] > 0 ? 1 : 0];
  const expr = src.fitIntercept ? "y·(w·x+b)" : "y·(w·x)";
  return (
    `epoch ${src.epoch[k - 1]}  example ${i + 1}  x=${x} y=${label}  ${expr}=${num(src.score[k - 1])} ≤ 0: mistake  ` +
    `w_${k} = ${traceVec(src, src.weightsAfter(k - 1))} -> w_${k + 1} = ${traceVec(src, src.weightsAfter(k))}`
  );
}

// Long vectors are cut in the large display; the trace line below keeps every coordinate.
function shortVec(src, v) {
  const [w, b] = split(src, v);
  const shown = w.length > 8 ? vec(w.slice(0, 6)).slice(0, -1) + `, … ${w.length - 6} more)` : vec(w);
  return src.fitIntercept ? `${shown}, b = ${fmt(b)}` : shown;
}

const viewStep = {
  build(src) {
    const slider = $("#slider");
    slider.max = src.K;
    setText('[data-q="steps"]', String(src.K));
    setText('[data-q="steps-mini"]', String(src.K));
  },

  update(src, k) {
    $("#slider").value = k;
    setText('[data-q="step"]', String(k));
    setText('[data-q="step-mini"]', String(k));
    const status = $("#step-status");
    let text;
    if (k === 0) text = `Start: w${sub(1)} = 0, no update yet. ${src.K} update${src.K === 1 ? "" : "s"} follow.`;
    else {
      const i = src.index[k - 1];
      text = `Update ${k} of ${src.K} · epoch ${src.epoch[k - 1]} · example ${i + 1} was a mistake.`;
    }
    if (k === src.K) {
      if (src.converged) text += ` Done: epoch ${src.nEpochs} made no mistake, the data are separated.`;
      else if (src.truncated) text += ` The page keeps the first ${src.K} of the run's ${src.nUpdates} updates.`;
      else text += ` Stopped after ${src.nEpochs} epochs without converging.`;
    }
    // while playing, the live region would read every step aloud: it speaks when stopped
    status.setAttribute("aria-live", state.playing ? "off" : "polite");
    status.textContent = text;
    const before = src.weightsAfter(Math.max(0, k - 1)), after = src.weightsAfter(k);
    const tr = $("#transition");
    if (k === 0) tr.replaceChildren(h("span", {}, `w${sub(1)} = ${shortVec(src, after)}`));
    else {
      tr.replaceChildren(
        h("span", {}, `w${sub(k)} = ${shortVec(src, before)}`),
        h("span", { class: "arrow", "aria-label": "becomes" }, "→"),
        h("b", { "data-q": "w-now" }, `w${sub(k + 1)} = ${shortVec(src, after)}`),
      );
    }
    $("#trace-line").textContent = traceLine(src, k);
    const win = $("#trace-window");
    const lo = Math.max(0, k - 3), hi = Math.min(src.K, k + 3);
    const items = [];
    for (let j = lo; j <= hi; j++) {
      items.push(h("li", { class: j === k ? "now" : "", "aria-current": j === k ? "step" : null }, traceLine(src, j)));
    }
    win.replaceChildren(...items);
  },
};

const ICONS = {
  play: '<svg class="ico" viewBox="0 0 16 16" aria-hidden="true"><path d="M4 2v12l9-6z"/></svg>',
  pause: '<svg class="ico" viewBox="0 0 16 16" aria-hidden="true"><path d="M3 2h3.5v12H3zM9.5 2H13v12H9.5z"/></svg>',
};

// Play: steps per second from the speed menu, one animation frame at a time.
const player = {
  raf: null,
  toggle(on) {
    const want = on === undefined ? !state.playing : on;
    state.playing = want;
    const btn = $("#play");
    btn.setAttribute("aria-pressed", String(want));
    btn.innerHTML = want ? ICONS.pause + " Pause" : ICONS.play + " Play";
    if (!want) {
      cancelAnimationFrame(this.raf);
      this.raf = null;
      scheduleHash();
      setStep(state.step, true); // the status line speaks again
      return;
    }
    if (state.step >= state.src.K) setStep(0);
    let last = performance.now(), carry = 0;
    const tick = (now) => {
      carry += ((now - last) / 1000) * Number($("#speed").value);
      last = now;
      const n = Math.floor(carry);
      if (n > 0) {
        carry -= n;
        setStep(state.step + n);
      }
      if (state.step >= state.src.K) return this.toggle(false);
      this.raf = requestAnimationFrame(tick);
    };
    this.raf = requestAnimationFrame(tick);
  },
};
