"""Your data in a real browser (headless Chromium driven by Playwright): files are uploaded
through the page's own file input, one after another, and the column widgets must show, and the
page must use, each new file's own suggestions. Screenshots of each kind of file at 1920x1080
and 1280x720 go to tests/artifacts/ (conftest.py starts the server and the browser).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from apptools import settle as _settle

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"

pytestmark = [pytest.mark.browser, pytest.mark.slow]

POINTS = (b"x,y,animal,kmeans\n0.1,0.3,cat,1\n0.2,0.1,cat,1\n0.3,0.2,cat,1\n5.0,4.8,dog,2\n5.2,5.1,dog,2\n"
          b"4.9,5.3,dog,3\n9.1,0.2,bird,3\n9.3,0.1,bird,3\n")
LABELS_ONLY = b"truth,found\ncat,1\ncat,1\ndog,2\ndog,2\nbird,3\nbird,1\n"
NO_HEADER = b"0.5,1.5,north\n0.7,1.1,north\n3.2,4.4,south\n3.0,4.9,south\n6.1,0.2,east\n6.3,0.4,east\n"
DECIMAL_COMMA = "lat;lon;région\n1,5;2,25;nord\n1,25;2,5;nord\n7,5;8,0;sud\n7,0;8,25;sud\n".encode()
SIZES = [(1920, 1080), (1280, 720)]


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    yield context.new_page()
    context.close()


def _upload(page, name: str, content: bytes, shape: str):
    """Upload a file and wait for the page to show its `shape` ("8 rows, 4 columns")."""
    page.locator("[data-testid=stFileUploader] input[type=file]").set_input_files(
        {"name": name, "mimeType": "text/csv", "buffer": content})
    page.locator("[data-testid=stFileChipName]", has_text=name).wait_for(timeout=60_000)
    _main(page).get_by_text(f"{shape}. Rows are numbered from 1").wait_for(timeout=60_000)
    _settle(page)


def _main(page):
    return page.locator("[data-testid=stMain]")


def _chosen(page, label: str) -> list[str]:
    """The options a multiselect shows as chosen (its tags)."""
    box = page.get_by_role("combobox", name=label, exact=True)
    widget = page.locator("[data-testid=stMultiSelect]").filter(has=box)
    return [tag.get_attribute("aria-label") for tag in widget.locator("[data-tag]").all()]


def _mode(page) -> str:
    return page.get_by_test_id("stRadioGroup").locator("label:has(input:checked)").inner_text().strip()


def _shots(page, name: str):
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        _settle(page)
        page.screenshot(path=str(ARTIFACTS / f"your_data_{name}_{width}x{height}.png"))
    page.set_viewport_size({"width": 1600, "height": 4000})
    _settle(page)
    page.screenshot(path=str(ARTIFACTS / f"your_data_{name}_overview.png"))
    page.set_viewport_size({"width": 1920, "height": 1080})


def test_each_upload_shows_and_uses_its_own_columns(server, page):
    page.goto(server, wait_until="domcontentloaded")
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=90_000)  # the first run has finished
    _settle(page)
    page.get_by_role("link", name="Your data").click()
    page.get_by_role("heading", name="Your data").first.wait_for(timeout=90_000)
    _settle(page, timeout=180_000)

    # a points file with text labels: coordinates and labels chosen, the labels named as written
    _upload(page, "animals.csv", POINTS, "8 rows, 4 columns")
    assert _mode(page) == "points with label columns"
    assert _chosen(page, "Coordinate columns") == ["x", "y"]
    assert _chosen(page, "Reference label column(s): the first is the default reference") == ["animal", "kmeans"]
    _main(page).get_by_text("8 points in 2 dimension(s), partitions: animal, kmeans.").wait_for()
    _main(page).get_by_text("Label columns: animal (3 labels), kmeans (3 labels).").wait_for()
    _shots(page, "points")
    # the user changes the choice ...
    box = page.get_by_role("combobox", name="Coordinate columns", exact=True)
    page.locator("[data-testid=stMultiSelect]").filter(has=box).get_by_role("button", name="Clear all").click()
    _settle(page)
    assert _chosen(page, "Coordinate columns") == []

    # ... then uploads a label-only file: two label columns, its own columns in the boxes
    _upload(page, "labels.csv", LABELS_ONLY, "6 rows, 2 columns")
    assert _mode(page) == "two label columns"
    assert page.get_by_role("combobox", name="Reference labels", exact=True).input_value() == "truth"
    assert page.get_by_role("combobox", name="Candidate labels", exact=True).input_value() == "found"
    page.locator("[data-testid=stMain] h3", has_text="truth vs found").wait_for(timeout=60_000)
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=90_000)
    _settle(page)
    assert page.get_by_text("Traceback").count() == 0 and page.locator("[data-testid=stException]").count() == 0
    _shots(page, "labels_only")

    # a file without header: columns named by position, and said so
    _upload(page, "plain.csv", NO_HEADER, "6 rows, 3 columns")
    assert _mode(page) == "points with label columns"
    _main(page).get_by_text("The first row holds data, not column names").wait_for()
    assert _chosen(page, "Coordinate columns") == ["column 1", "column 2"]
    assert _chosen(page, "Reference label column(s): the first is the default reference") == ["column 3"]
    assert not page.get_by_role("checkbox", name="The first row holds the column names").is_checked()
    _main(page).get_by_text("6 points in 2 dimension(s), partitions: column 3.").wait_for()
    _shots(page, "no_header")

    # a European export: semicolons and decimal commas
    _upload(page, "europe.csv", DECIMAL_COMMA, "4 rows, 3 columns")
    _main(page).get_by_text("Decimal commas read as decimal points in 'lat', 'lon'").wait_for()
    assert _chosen(page, "Coordinate columns") == ["lat", "lon"]
    assert _chosen(page, "Reference label column(s): the first is the default reference") == ["région"]
    _main(page).get_by_text("4 points in 2 dimension(s), partitions: région.").wait_for()
    _shots(page, "decimal_comma")

    # the points the app uses are the last file's, with its labels as written
    page.get_by_role("button", name="Use these points in the app").click()
    _settle(page)
    page.get_by_role("link", name="Compare").click()
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=90_000)
    _settle(page)
    shown = _main(page).inner_text()
    assert "4 points from europe.csv, coordinates 'lat', 'lon'; the reference 'région' has 2 clusters" in shown
    assert page.get_by_text("Traceback").count() == 0


# named coordinates and long string labels, as in the UCI iris file
IRIS = (b"sepal length,petal width,species,found\n" + b"".join(
    f"{5 + i * 0.1:.1f},{0.2 + (i // 4) * 0.9:.1f},{['Iris-setosa', 'Iris-versicolor', 'Iris-virginica'][i // 4]},"
    f"{1 + (i // 4 + (i == 11)) % 3}\n".encode() for i in range(12)))


def _go(page, link: str):
    page.get_by_role("link", name=link).first.click()
    _settle(page, timeout=180_000)


def test_the_upload_stays_after_a_page_switch_and_compare_names_its_file(server, page):
    page.goto(server + "/your_data", wait_until="domcontentloaded")
    page.get_by_role("heading", name="Your data").first.wait_for(timeout=90_000)
    _settle(page, timeout=180_000)
    _main(page).get_by_text("No file yet").wait_for()
    _upload(page, "animals.csv", POINTS, "8 rows, 4 columns")
    page.get_by_role("button", name="Use these points in the app").click()
    _main(page).get_by_text("The sidebar works on these points (animals.csv)").wait_for(timeout=60_000)

    _go(page, "Compare")
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=90_000)
    _main(page).get_by_text("Your data: animals.csv").first.wait_for(timeout=60_000)
    _settle(page)
    assert "x" in page.locator(".js-plotly-plot .xtitle").all_text_contents()

    _go(page, "Your data")  # the uploader is empty again in the browser; the page still shows the file
    _main(page).get_by_text("File: animals.csv").wait_for(timeout=60_000)
    _main(page).get_by_text("uploaded before: it stays here while you visit other pages").wait_for()
    _main(page).get_by_text("8 rows, 4 columns. Rows are numbered from 1").wait_for()
    assert _main(page).get_by_text("No file yet").count() == 0
    assert _chosen(page, "Coordinate columns") == ["x", "y"]
    assert _chosen(page, "Reference label column(s): the first is the default reference") == ["animal", "kmeans"]
    _main(page).get_by_text("The sidebar works on these points (animals.csv)").wait_for()

    # a new file, not used yet: the page says the sidebar still holds the first one, Compare says it too
    _upload(page, "iris.csv", IRIS, "12 rows, 4 columns")
    _main(page).get_by_text("it holds animals.csv, uploaded before, not iris.csv").wait_for(timeout=60_000)
    _go(page, "Compare")
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=90_000)
    sidebar = page.get_by_test_id("stSidebar")
    sidebar.get_by_text("The Your data page shows iris.csv, which is not in use").wait_for(timeout=60_000)
    _main(page).get_by_text("Your data: animals.csv").first.wait_for()

    _go(page, "Your data")
    _main(page).get_by_text("File: iris.csv").wait_for(timeout=60_000)
    page.get_by_role("button", name="Use these points in the app").click()
    _main(page).get_by_text("The sidebar works on these points (iris.csv)").wait_for(timeout=60_000)
    _go(page, "Compare")
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=90_000)
    _main(page).get_by_text("Your data: iris.csv").first.wait_for(timeout=60_000)
    _settle(page)
    assert sidebar.get_by_text("not in use").count() == 0
    assert {"sepal length", "petal width"} <= set(page.locator(".js-plotly-plot .xtitle, .js-plotly-plot .ytitle")
                                                   .all_text_contents())
    nodes = page.locator(".js-plotly-plot .textpoint").all_text_contents()
    assert nodes.count("Iris-versicolor") == 1  # whole in the mapping diagram (its left column)
    assert page.get_by_text("Traceback").count() == 0
    _shots(page, "compare_iris")
