"""Sphinx configuration of the perceptrons documentation (``make docs``).

The build needs no network: no intersphinx, and the gallery's examples use only generated data
and the seeds' worked examples.
"""

import os
import sys

import perceptrons

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "_ext"))

project = "perceptrons"
author = "the perceptrons developers"
copyright = "the perceptrons developers; BSD-3-Clause"
release = version = perceptrons.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
    "mathml",  # _ext/mathml.py: formulas as MathML, no MathJax from a CDN
]
html_math_renderer = "mathml"

templates_path = ["_templates"]
exclude_patterns = ["_build"]
root_doc = "index"
default_role = "literal"  # `x` in a docstring is code, never a guessed cross-reference
nitpicky = False

# ---------------------------------------------------------------- autodoc / autosummary / numpydoc
autosummary_generate = True
autosummary_imported_members = False
autodoc_typehints = "none"
autodoc_member_order = "bysource"

numpydoc_show_class_members = False  # the class template lists the methods; no duplicate tables
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
# Each public function and method says what it takes and what it gives back:
# PR01 a parameter is not documented, PR02 a documented parameter does not exist,
# RT01 a function that returns something has no Returns section.
numpydoc_validation_checks = {"PR01", "PR02", "RT01"}
numpydoc_validation_exclude = {
    # Records that functions return (dataclasses, a NamedTuple): their constructor's parameters
    # are the fields, documented once, as Attributes.  Their methods are still checked.
    (
        r"^perceptrons\.theory\.(Analysis|NovikoffBound|FreundSchapireBound|Margins|MaxMarginResult"
        r"|SeparabilityResult|FeasibilityResult|LinprogResult|GrowthResult|MistakeBound)$"
    ),
    r"^perceptrons\.lifting\.Circle$",
    r"^perceptrons\.distributed\.MixingBound$",
}

# ---------------------------------------------------------------- the gallery
sphinx_gallery_conf = {
    "examples_dirs": os.path.join("..", "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "abort_on_example_error": True,
    "run_stale_examples": True,  # every build runs every example: the gallery is a test too
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "reference_url": {"perceptrons": None},
    "min_reported_time": 10,
    "write_computation_times": False,  # its page loaded jQuery and DataTables from CDNs
}

# ---------------------------------------------------------------- HTML
html_theme = "pydata_sphinx_theme"  # scikit-learn's theme
html_title = f"perceptrons {release}"
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "show_prev_next": False,
    "header_links_before_dropdown": 5,  # long API names in its two boxes ran out of them
    "footer_start": ["copyright"],
    "footer_end": [],
    "secondary_sidebar_items": ["page-toc"],
}
# the section navigation where there is a section to navigate (the API, the gallery); the guide's
# pages are listed in the top bar, and their code gets the width
GUIDE = ("index", "install", "quickstart", "own_data", "choosing", "cli", "streaming", "tagger", "distributed")
GUIDE += ("report", "theory", "conventions", "trust", "training", "house")
html_sidebars = {page: [] for page in GUIDE}
html_static_path = ["_static"]
html_css_files = ["perceptrons.css"]
html_show_sourcelink = False
html_copy_source = False
