"""Sphinx configuration of the perceptrons documentation (``make docs``).

The build needs no network: no intersphinx, and the gallery's examples use only generated data
and the seeds' worked examples.
"""

import os

import perceptrons

project = "perceptrons"
author = "the perceptrons developers"
copyright = "the perceptrons developers; BSD-3-Clause"
release = version = perceptrons.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

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
        r"|SeparabilityResult|FeasibilityResult|LinprogResult|GrowthResult)$"
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
}

# ---------------------------------------------------------------- HTML
html_theme = "alabaster"
html_title = f"perceptrons {release}"
html_theme_options = {
    "description": "The perceptron family as real software, with the theory as working tools.",
    "fixed_sidebar": False,
    "show_powered_by": False,
    "page_width": "1100px",
}
html_static_path = []
html_show_sourcelink = False
html_copy_source = False
