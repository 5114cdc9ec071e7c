// DOM helpers and the two ways numbers are written: `fmt` for the page (4 significant digits,
// typographic minus) and `num` for trace lines, which must read exactly as `perceptrons trace`
// prints them (Python's `str(int(v))` for whole numbers, else `f"{v:.4g}"`).

const $ = (sel, root) => (root || document).querySelector(sel);
const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));

function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "html") node.innerHTML = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

function setText(sel, text) {
  for (const node of $$(sel)) node.textContent = text;
}

const MINUS = "\u2212";
const SUB = "₀₁₂₃₄₅₆₇₈₉";
const sub = (k) => String(k).replace(/\d/g, (c) => SUB[+c]);

// Display: whole numbers exactly, others with 4 significant digits (trailing zeros kept, so
// 0.5000 says how precise it is); "—" for a number that does not exist (JSON null).
function fmt(v, digits) {
  if (v === null || v === undefined || Number.isNaN(v)) return "—";
  if (!Number.isFinite(v)) return v > 0 ? "∞" : MINUS + "∞";
  let s;
  if (Number.isInteger(v) && Math.abs(v) < 1e15) s = String(v);
  else {
    const p = digits || 4;
    const e = Math.floor(Math.log10(Math.abs(v)));
    if (e >= -4 && e < 6) s = v.toPrecision(p);
    else {
      const [m, x] = v.toExponential(p - 1).split("e");
      s = m + "×10" + supExp(x);
    }
    if (s.includes("e")) s = v.toFixed(Math.max(0, p - 1 - e)); // 12345.6: toPrecision(4) would say 1.235e+4
  }
  return s.replace(/-/g, MINUS);
}

const SUP = { "-": "⁻", "+": "", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };
const supExp = (x) => String(x).replace(/./g, (c) => SUP[c]);

// "+1" for a class labelled 1 (or +1), "spam (+1)" otherwise; the same for −1
function classLabel(labels, sign) {
  const name = labels[sign > 0 ? 1 : 0];
  const bare = sign > 0 ? ["1", "+1", "1.0"] : ["-1", "-1.0"];
  const tag = sign > 0 ? "+1" : MINUS + "1";
  return bare.includes(name) ? tag : `${name} (${tag})`;
}

function vec(w, digits) {
  return "(" + Array.from(w, (v) => fmt(v, digits)).join(", ") + ")";
}

// Python's f"{v:.4g}": 4 significant digits rounded half to even on the exact binary value,
// trailing zeros dropped, exponent form (at least two digits) outside 1e-4 <= |v| < 1e4.
// toExponential rounds correctly too, except at an exact tie (it rounds up): only when the
// 5th digit reads 5 are the exact digits looked at.
function pyG(v) {
  if (v === 0) return Object.is(v, -0) ? "-0" : "0";
  if (!Number.isFinite(v)) return Number.isNaN(v) ? "nan" : v > 0 ? "inf" : "-inf";
  const a = Math.abs(v);
  let [m, e] = a.toExponential(3).split("e");
  let head = m.replace(".", "");
  let exp10 = +e;
  if (a.toExponential(4)[5] === "5") [head, exp10] = roundHalfEven4(a);
  let out;
  if (exp10 >= -4 && exp10 < 4) {
    const t = exp10 >= 0 ? head.slice(0, exp10 + 1) + "." + head.slice(exp10 + 1) : "0." + "0".repeat(-exp10 - 1) + head;
    out = t.includes(".") ? t.replace(/0+$/, "").replace(/\.$/, "") : t;
  } else {
    const mant = (head[0] + "." + head.slice(1)).replace(/0+$/, "").replace(/\.$/, "");
    const ae = Math.abs(exp10);
    out = mant + "e" + (exp10 < 0 ? "-" : "+") + (ae < 10 ? "0" : "") + ae;
  }
  return (v < 0 ? "-" : "") + out;
}

// [4 digits, exponent] of a > 0 rounded half to even, from its exact decimal expansion (up to
// 100 significant digits: an exact tie at the 5th digit has a short expansion)
function roundHalfEven4(a) {
  const [mant, ex] = a.toExponential(99).split("e");
  const digits = mant.replace(".", "");
  let exp10 = +ex;
  let head = digits.slice(0, 4);
  const rest = digits.slice(4);
  const up = rest[0] > "5" || (rest[0] === "5" && (/[1-9]/.test(rest.slice(1)) || +head[3] % 2 === 1));
  if (up) {
    head = String(+head + 1);
    if (head.length > 4) {
      head = head.slice(0, 4);
      exp10 += 1;
    }
  }
  return [head, exp10];
}

// perceptrons trace's _num: whole numbers as integers, the rest with %.4g
function num(v) {
  v = v + 0; // -0 -> 0, as Python's float(v) + 0.0
  return Number.isInteger(v) && Math.abs(v) < 1e16 ? String(v) : pyG(v);
}

function dot(a, b) {
  let s = 0;
  for (let j = 0; j < a.length; j++) s += a[j] * b[j];
  return s;
}
const norm = (a) => Math.sqrt(dot(a, a));

// Math.min/max over long arrays without spreading them into arguments (V8 caps those)
function arrMin(a) {
  let m = Infinity;
  for (const v of a) if (v < m) m = v;
  return m;
}
function arrMax(a) {
  let m = -Infinity;
  for (const v of a) if (v > m) m = v;
  return m;
}

function clamp(v, lo, hi) {
  return Math.max(lo, Math.min(hi, v));
}

function onResize(fn) {
  let timer = null;
  let width = window.innerWidth;
  window.addEventListener("resize", () => {
    if (window.innerWidth === width) return; // mobile browsers resize on scroll (address bar)
    width = window.innerWidth;
    clearTimeout(timer);
    timer = setTimeout(fn, 120);
  });
}
