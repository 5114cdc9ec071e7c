// SVG charts drawn at the container's real pixel size (so text stays legible on a phone), with
// a static layer (axes, curves: drawn once per resize) and a dynamic one (cursors: per step).

const SVGNS = "http://www.w3.org/2000/svg";

function s(tag, attrs, parent) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function scale(d0, d1, r0, r1) {
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  const f = (v) => r0 + (v - d0) * k;
  f.invert = (p) => d0 + (p - r0) / (k || 1);
  f.domain = [d0, d1];
  return f;
}

// 1, 2 or 5 times a power of ten, about `count` ticks over [lo, hi]
function ticks(lo, hi, count) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / Math.max(1, count);
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * p).find((st) => st >= raw);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return out;
}

function tickText(v) {
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e5 || a < 1e-3)) return fmt(v, 2);
  return (+v.toPrecision(6)).toString().replace(/-/g, MINUS);
}

// Pad a data range so curves do not touch the frame.
function padded(lo, hi, frac) {
  if (!(hi > lo)) return [lo - 1, hi + 1];
  const p = (hi - lo) * (frac === undefined ? 0.06 : frac);
  return [lo - p, hi + p];
}

class Chart {
  // opts: xDomain, yDomain, xLabel, yLabel, title, square (equal units on both axes), aspect,
  // maxHeight, label (accessible name)
  constructor(container, opts) {
    this.container = container;
    this.opts = opts;
    container.textContent = "";
    const width = Math.max(260, Math.floor(container.clientWidth || 320));
    const m = { top: opts.title ? 26 : 12, right: 14, bottom: opts.xLabel ? 42 : 26, left: opts.yLabel ? 58 : 44 };
    let [x0, x1] = opts.xDomain;
    let [y0, y1] = opts.yDomain;
    let iw = width - m.left - m.right;
    let ih;
    if (opts.square) {
      // equal units: a hyperplane's normal must look perpendicular to it
      // at most a little taller than wide, so a tall data box does not fill a phone's screen
      ih = Math.min(iw * (y1 - y0) / (x1 - x0), opts.maxHeight || 560, iw * 1.15);
      if (ih < iw * 0.55) ih = iw * 0.55;
      const per = Math.max((x1 - x0) / iw, (y1 - y0) / ih);
      const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
      [x0, x1] = [cx - (per * iw) / 2, cx + (per * iw) / 2];
      [y0, y1] = [cy - (per * ih) / 2, cy + (per * ih) / 2];
    } else ih = Math.min(opts.maxHeight || 320, Math.max(170, iw * (opts.aspect || 0.62)));
    this.m = m;
    this.iw = iw;
    this.ih = ih;
    this.width = width;
    this.height = ih + m.top + m.bottom;
    this.x = scale(x0, x1, m.left, m.left + iw);
    this.y = scale(y0, y1, m.top + ih, m.top);
    this.svg = s("svg", {
      width: this.width, height: this.height, viewBox: `0 0 ${this.width} ${this.height}`,
      role: "img", "aria-label": opts.label || opts.title || "",
    }, container);
    const clipId = "clip" + Math.random().toString(36).slice(2);
    s("rect", { x: m.left, y: m.top, width: iw, height: ih }, s("clipPath", { id: clipId }, s("defs", {}, this.svg)));
    this.grid = s("g", { class: "grid" }, this.svg);
    this.axes = s("g", { class: "axis" }, this.svg);
    this.layer = s("g", { "clip-path": `url(#${clipId})` }, this.svg);
    this.back = s("g", {}, this.layer); // shading, drawn per step below the static layer
    this.stat = s("g", {}, this.layer);
    this.dyn = s("g", {}, this.layer);
    this.over = s("g", {}, this.svg); // unclipped labels
    this.drawAxes();
  }

  drawAxes() {
    const { m, iw, ih, x, y, opts } = this;
    const xt = ticks(x.domain[0], x.domain[1], Math.max(4, Math.round(iw / 80)));
    const yt = ticks(y.domain[0], y.domain[1], Math.max(3, Math.round(ih / 55)));
    for (const v of xt) {
      s("line", { x1: x(v), x2: x(v), y1: m.top, y2: m.top + ih }, this.grid);
      s("text", { x: x(v), y: m.top + ih + 16, "text-anchor": "middle" }, this.axes).textContent = tickText(v);
    }
    for (const v of yt) {
      s("line", { x1: m.left, x2: m.left + iw, y1: y(v), y2: y(v) }, this.grid);
      s("text", { x: m.left - 6, y: y(v) + 4, "text-anchor": "end" }, this.axes).textContent = tickText(v);
    }
    s("rect", { class: "frame", x: m.left, y: m.top, width: iw, height: ih }, this.axes);
    if (opts.xLabel) {
      s("text", { class: "axis-label", x: m.left + iw / 2, y: m.top + ih + 34, "text-anchor": "middle" }, this.axes)
        .textContent = opts.xLabel;
    }
    if (opts.yLabel) {
      s("text", {
        class: "axis-label", transform: `translate(${14},${m.top + ih / 2}) rotate(-90)`, "text-anchor": "middle",
      }, this.axes).textContent = opts.yLabel;
    }
    if (opts.title) {
      s("text", { class: "chart-title", x: m.left, y: 16 }, this.axes).textContent = opts.title;
    }
  }

  // a new y range (a histogram whose tallest bar changes with the step): axes redrawn
  rescaleY(lo, hi) {
    this.y = scale(lo, hi, this.m.top + this.ih, this.m.top);
    this.grid.textContent = "";
    this.axes.textContent = "";
    this.drawAxes();
  }

  path(xs, ys, cls, parent) {
    let d = "";
    for (let i = 0; i < xs.length; i++) {
      if (ys[i] === null || ys[i] === undefined) continue;
      d += (d ? "L" : "M") + this.x(xs[i]).toFixed(1) + "," + this.y(ys[i]).toFixed(1);
    }
    return s("path", { d, class: cls }, parent || this.stat);
  }

  // The line w·x + b = 0 across the plot (2-D charts); null when w = 0.
  lineEnds(w, b) {
    const [x0, x1] = this.x.domain;
    const [y0, y1] = this.y.domain;
    if (Math.abs(w[1]) >= Math.abs(w[0])) {
      if (w[1] === 0) return null;
      return [[x0, -(w[0] * x0 + b) / w[1]], [x1, -(w[0] * x1 + b) / w[1]]];
    }
    return [[-(w[1] * y0 + b) / w[0], y0], [-(w[1] * y1 + b) / w[0], y1]];
  }

  hyperplane(w, b, cls, parent) {
    const ends = this.lineEnds(w, b);
    if (!ends) return null;
    return s("line", {
      x1: this.x(ends[0][0]), y1: this.y(ends[0][1]), x2: this.x(ends[1][0]), y2: this.y(ends[1][1]), class: cls,
    }, parent || this.stat);
  }

  // The plot's box cut to the region where every (a, c) of `sides` has a·p + c >= 0, as an SVG
  // points list (a half-plane, or a band between two parallel lines).
  region(sides) {
    const [x0, x1] = this.x.domain;
    const [y0, y1] = this.y.domain;
    let poly = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
    for (const [a, c] of sides) {
      const f = (p) => a[0] * p[0] + a[1] * p[1] + c;
      const out = [];
      for (let i = 0; i < poly.length; i++) {
        const p = poly[i], q = poly[(i + 1) % poly.length];
        const fp = f(p), fq = f(q);
        if (fp >= 0) out.push(p);
        if ((fp >= 0) !== (fq >= 0)) {
          const t = fp / (fp - fq);
          out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
        }
      }
      poly = out;
    }
    return poly.map((p) => `${this.x(p[0]).toFixed(1)},${this.y(p[1]).toFixed(1)}`).join(" ");
  }

  // where w·x + b >= 0 (sign(0) = +1 predicts the positive class), or its complement
  halfPlane(w, b, positive) {
    const sg = positive ? 1 : -1;
    return this.region([[[sg * w[0], sg * w[1]], sg * b]]);
  }

  // class +1: a circle; class -1: a square (told apart without colour)
  marker(px, py, label, r, cls, parent) {
    if (label > 0) return s("circle", { cx: px, cy: py, r, class: "pt-pos " + (cls || "") }, parent);
    const a = r * 0.9;
    return s("rect", { x: px - a, y: py - a, width: 2 * a, height: 2 * a, class: "pt-neg " + (cls || "") }, parent);
  }

  hline(v, cls, parent, from, to) {
    const x0 = from === undefined ? this.x.domain[0] : from;
    const x1 = to === undefined ? this.x.domain[1] : to;
    return s("line", { x1: this.x(x0), x2: this.x(x1), y1: this.y(v), y2: this.y(v), class: cls }, parent || this.stat);
  }

  cursorAt(xv, yv) {
    this.dyn.textContent = "";
    const px = this.x(xv);
    s("line", { x1: px, x2: px, y1: this.m.top, y2: this.m.top + this.ih, class: "cursor" }, this.dyn);
    if (yv !== null && yv !== undefined && Number.isFinite(yv)) s("circle", { cx: px, cy: this.y(yv), r: 4.5, class: "cursor-dot" }, this.dyn);
  }
}

// At most ~2·buckets points of a long series, keeping each bucket's first, lowest and highest
// point, so that a spike between drawn points is never lost (the numbers shown are not thinned).
function decimate(n, ys, buckets) {
  if (n <= 2 * buckets) return Array.from({ length: n }, (_, i) => i);
  const out = [];
  const size = n / buckets;
  for (let b = 0; b < buckets; b++) {
    const lo = Math.floor(b * size), hi = Math.min(n, Math.floor((b + 1) * size));
    let imin = lo, imax = lo;
    for (let i = lo; i < hi; i++) {
      if (ys[i] < ys[imin]) imin = i;
      if (ys[i] > ys[imax]) imax = i;
    }
    for (const i of [lo, imin, imax].sort((a, c) => a - c)) if (out[out.length - 1] !== i) out.push(i);
  }
  if (out[out.length - 1] !== n - 1) out.push(n - 1);
  return out;
}

function legendItem(kind, cssColor, text) {
  const key = h("span", { class: "key " + kind, style: kind.match(/mark|square|box/) ? `background:${cssColor}` : `border-color:${cssColor}` });
  return h("li", {}, key, text);
}
