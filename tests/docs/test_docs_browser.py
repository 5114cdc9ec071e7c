"""The documentation site in a real browser: the operating system's Chromium, driven by Playwright.

Every page of the built site (``make docs``; ``make test`` builds it before the tests) is opened
at a laptop's width, 1280 × 800, and checked: nothing a reader should see is cut off, hidden
behind a scroll bar, spilled out of its column or past the window; no request leaves the
site's files; no script error.  Screenshots of the guide's pages go to
``test-artifacts/docs/``.
"""

import shutil
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "docs" / "_build" / "html"
ARTIFACTS = ROOT / "test-artifacts" / "docs"

#: the guide's pages, each shot to ARTIFACTS
GUIDE = ("index", "install", "quickstart", "own_data", "choosing", "cli", "streaming", "tagger", "trust")

#: what a reader cannot see whole: an element whose content its box hides (clipped, or behind a
#: scroll bar), or which spills out of its column of the page (article, sidebars, header,
#: footer) or past the window
OVERFLOW = """() => {
  const out = [];
  const width = document.documentElement.clientWidth;
  const columns = '.bd-article-container, .bd-sidebar-primary, .bd-sidebar-secondary, .bd-footer, .bd-header';
  for (const el of document.body.querySelectorAll('*')) {
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    if (el.closest('.dropdown-menu, .search-button__wrapper, .visually-hidden, .sr-only')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    let why = null;
    if (style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1) why = 'hides part of its content';
    else if (r.right > width + 1 || r.left < -1) why = 'passes the window';
    else {
      const column = el.parentElement && el.parentElement.closest(columns);
      if (column) {
        const c = column.getBoundingClientRect();
        if (r.right > c.right + 1 || r.left < c.left - 1) why = 'spills out of its column';
      }
    }
    if (why) out.push(`${el.tagName.toLowerCase()} ${why}: ${(el.textContent || '').trim().slice(0, 60)}`);
  }
  return out;
}"""


def _pages():
    if not (SITE / "index.html").exists():
        return []
    skip = {"_static", "_modules", "_sources", "_images", "_downloads"}
    return sorted(p.relative_to(SITE) for p in SITE.rglob("*.html") if not skip & set(p.relative_to(SITE).parts))


@pytest.fixture(scope="module")
def browser():
    if not (SITE / "index.html").exists():
        pytest.skip("the site is not built: `make docs` builds it (`make test` does, before the tests)")
    path = shutil.which("chromium")
    if path is None:
        pytest.fail("chromium is not installed: `make browser` installs Debian's package (as root)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=["--no-sandbox"])
        context = b.new_context(viewport={"width": 1280, "height": 800})
        yield context.new_page()
        b.close()


def test_the_site_has_the_guide_pages():
    if not (SITE / "index.html").exists():
        pytest.skip("the site is not built: `make docs` builds it (`make test` does, before the tests)")
    built = {str(p) for p in _pages()}
    assert {f"{name}.html" for name in GUIDE} <= built
    assert len(built) > 50  # the API pages and the gallery too


@pytest.mark.parametrize("page", _pages() or ["index.html"], ids=str)
def test_no_block_overflows_at_1280_px(browser, page):
    requests, errors = [], []

    def on_request(request):
        requests.append(request.url)

    def on_error(error):
        errors.append(str(error))

    browser.on("request", on_request)
    browser.on("pageerror", on_error)
    try:
        browser.goto((SITE / page).as_uri())
        browser.wait_for_load_state("load")
        hidden = browser.evaluate(OVERFLOW)
        outside = [u for u in requests if not u.startswith(("file://", "data:"))]
    finally:
        browser.remove_listener("request", on_request)
        browser.remove_listener("pageerror", on_error)
    assert hidden == [], f"{page}: {hidden[:5]}"
    assert browser.title(), page
    assert outside == [], f"{page} asked the network for {outside[:3]}"
    assert errors == [], f"{page}: {errors[:3]}"
    if Path(page).stem in GUIDE and len(Path(page).parts) == 1:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        browser.screenshot(path=str(ARTIFACTS / f"{Path(page).stem}.png"), full_page=True)
