"""Math as MathML, converted at build time by docutils: no script, no request.

Sphinx's default renderer, MathJax, loads its script from a CDN, so a page with a formula
asked the network for it and showed raw LaTeX offline.  docutils converts LaTeX to MathML
(``docutils.utils.math.latex2mathml``), and browsers render MathML Core themselves (Chromium
since version 109, Firefox and Safari long before).  A formula docutils cannot convert fails the
build, naming the page, rather than showing LaTeX source.
"""

from docutils import nodes
from docutils.utils.math import latex2mathml
from sphinx.util import logging

logger = logging.getLogger(__name__)


def _mathml(self, node, block):
    try:
        return latex2mathml.tex2mathml(node.astext(), as_block=block)
    except SyntaxError as exc:
        logger.warning(f"math cannot be converted to MathML: {exc}", location=node)
        return f"<code>{self.encode(node.astext())}</code>"


def visit_inline(self, node):
    self.body.append(_mathml(self, node, block=False))
    raise nodes.SkipNode


def visit_block(self, node):
    # Equations apart by a blank line are apart on the page, as Sphinx's own renderers show them
    # (one per line); one MathML block of all of them ran past the column on narrow pages.
    for part in (p.strip() for p in node.astext().split("\n\n")):
        if part:
            self.body.append(f'<div class="math-block">{_mathml(self, nodes.math_block(part, part), block=True)}</div>')
    raise nodes.SkipNode


def setup(app):
    app.add_html_math_renderer("mathml", (visit_inline, None), (visit_block, None))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
