"""The chat page in a real browser: Debian's headless Chromium, driven through its own
chromedriver (Selenium), against a real `math-agent serve` and the scripted model. It types
the seed's three questions, waits for the streamed answers, finds the roots, the derivative
and the squares as rendered MathML, clicks a workspace id into the input, reloads and finds
the session again; any console error fails it. It saves a screenshot: docs/service-page.png
when MATH_AGENT_SCREENSHOT=1 (to refresh the docs' picture), else beside its logs, so a test
run leaves the checkout as it found it."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from agent.testing.seed import SEED_QUESTIONS
from tests.support.service import ROOT, ServeProcess, model_process

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SCREENSHOT = ROOT / "docs" / "service-page.png"
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--window-size=1400,900",
)  # fmt: skip


def need_browser() -> None:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).exists()]
    if not missing:
        return
    reason = f"{', '.join(missing)} not installed (apt-get install chromium chromium-driver)"
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser test: {reason}")
    pytest.skip(reason)


@pytest.fixture
def browser():
    need_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="math-agent-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def console_errors(driver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def rendered_math(driver) -> list[str]:
    """The text of every <math> element the page shows in its answers, as MathML nodes (in
    the MathML namespace, which Chromium lays out as math)."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#messages .assistant math')]"
        ".filter(m => m.namespaceURI === 'http://www.w3.org/1998/Math/MathML'"
        " && m.getBoundingClientRect().width > 0).map(m => m.textContent)"
    )


@pytest.mark.slow
def test_the_page_answers_the_seed_questions_with_rendered_math(browser, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    with model_process("seed", stream_delay_ms=20) as model:
        server = ServeProcess(
            model.base_url, tmp_path / "serve.log", MATH_AGENT_DB=str(tmp_path / "s.sqlite3")
        )
        try:
            wait = WebDriverWait(browser, 30)
            browser.get(server.url + "/")
            wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#strategy option"))
            box = browser.find_element(By.ID, "input")
            for count, question in enumerate(SEED_QUESTIONS, 1):
                box.send_keys(question)
                box.send_keys(Keys.ENTER)  # Enter sends
                wait.until(
                    lambda d, n=count: (
                        len(d.find_elements(By.CSS_SELECTOR, ".assistant math")) >= n
                        and not d.find_elements(By.CSS_SELECTOR, ".assistant.waiting")
                        and d.find_element(By.ID, "status").text.startswith("tokens in")
                    )
                )
            maths = rendered_math(browser)
            compact = [m.replace(" ", "").replace("\u2062", "") for m in maths]
            assert {"x=-3", "x=-2"} <= set(compact), compact  # the roots
            assert "2x+5" in compact, compact  # the derivative
            assert {"9", "4"} <= set(compact), compact  # the squares
            texts = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".assistant")]
            assert texts[0].replace("\n", "").startswith("The roots are")
            tools = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".tool")]
            assert len(tools) == 3 and tools[0].startswith("✓ solve(")

            # Up recalls the last message; a click on a workspace id puts it in the input.
            box.send_keys(Keys.ARROW_UP)
            assert box.get_attribute("value") == SEED_QUESTIONS[-1]
            box.clear()
            chips = browser.find_elements(By.CSS_SELECTOR, "#items .id")
            assert [c.text for c in chips] == ["#1", "#2", "#3", "#4"]
            box.send_keys("square each of ")
            chips[1].click()
            assert box.get_attribute("value") == "square each of #2"
            keep = os.environ.get("MATH_AGENT_SCREENSHOT") == "1"
            browser.save_screenshot(str(SCREENSHOT if keep else tmp_path / SCREENSHOT.name))

            # Reload: the session is found again, with its answers as math.
            session = browser.execute_script("return location.hash")
            browser.refresh()
            wait.until(lambda d: len(rendered_math(d)) >= 5)
            assert browser.execute_script("return location.hash") == session
            current = browser.find_element(By.CSS_SELECTOR, "#session-list li[aria-current=true]")
            assert current.text.startswith(SEED_QUESTIONS[0][:20])
            assert len(browser.find_elements(By.CSS_SELECTOR, ".msg.user")) == 3
            assert console_errors(browser) == []
        finally:
            server.stop()
