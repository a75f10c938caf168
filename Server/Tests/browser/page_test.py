#!/usr/bin/env python3
"""The page of city-server in a real browser: Debian's chromium, driven by playwright, offline.

Starts city-server on a free port over INDEX, then, as a user would: types "sna fran" and waits
for San Francisco with its highlight; moves through the list with the arrow keys and opens the
details with Enter; switches "near me" with a faked location; clicks the map and reads the
nearest cities; checks that an answer arriving after a newer one is dropped; and saves a
screenshot of each step under OUTPUT (not committed).

Usage: page_test.py SERVER_BINARY INDEX OUTPUT_FOLDER
Needs: pip install playwright; apt-get install chromium (no browser is downloaded).
"""
import os, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from server_process import ServerProcess  # noqa: E402

from playwright.sync_api import expect, sync_playwright

server_binary, index, output = sys.argv[1:4]
os.makedirs(output, exist_ok=True)

server = ServerProcess(server_binary, index)
try:
    base = server.base
    print(f"page test: {base}")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        # San Francisco's Ferry Building, as the faked position of "near me".
        context = browser.new_context(viewport={"width": 1200, "height": 900}, geolocation={"latitude": 37.7955, "longitude": -122.3937},
                                      permissions=["geolocation"], locale="en-US")
        requests_elsewhere = []
        context.on("request", lambda request: requests_elsewhere.append(request.url) if not request.url.startswith(base) else None)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(base)

        # Type as a user does, and find San Francisco with "San Fran" highlighted.
        box = page.get_by_role("combobox", name="City")
        box.press_sequentially("sna fran", delay=60)
        listbox = page.get_by_role("listbox", name="Cities")
        san_francisco = listbox.get_by_role("option").filter(has_text="San Francisco").first
        expect(san_francisco).to_be_visible(timeout=10000)
        expect(san_francisco.locator("mark").first).to_have_text("San Fran")
        expect(box).to_have_attribute("aria-expanded", "true")
        page.screenshot(path=os.path.join(output, "1-typed.png"))

        # The arrow keys move the active option (aria-activedescendant); Enter opens its details.
        options = listbox.get_by_role("option")
        expect(options.first).to_have_attribute("aria-selected", "true")
        count = options.count()
        assert count >= 2, f"only {count} options for 'sna fran'"
        box.press("ArrowDown")
        expect(options.nth(1)).to_have_attribute("aria-selected", "true")
        expect(box).to_have_attribute("aria-activedescendant", "result-1")
        box.press("ArrowUp")
        expect(box).to_have_attribute("aria-activedescendant", "result-0")
        index_of_san_francisco = int(san_francisco.get_attribute("data-index"))
        for _ in range(index_of_san_francisco):
            box.press("ArrowDown")
        box.press("Enter")
        details = page.get_by_role("region", name="Selected city")
        expect(details.get_by_role("heading", name="San Francisco")).to_be_visible()
        expect(details).to_contain_text("37°46′")   # 37.77493 N in degrees, minutes, seconds
        expect(details).to_contain_text("122°25′")
        page.screenshot(path=os.path.join(output, "2-details.png"))

        # From the keyboard: "Cities near here" in the details, focused, and Enter.
        details.get_by_role("button", name="Cities near here").focus()
        page.keyboard.press("Enter")
        expect(details.get_by_role("heading")).to_contain_text("Nearest to 37°46′")
        expect(details.get_by_role("listitem").first).to_contain_text("San Francisco")

        # "Near me" with the faked position: the results carry distances, the nearest first.
        page.get_by_role("switch", name="Near me").check()
        expect(page.locator("#near-status")).to_contain_text("Near 37.80, -122.39")
        box.fill("")
        with page.expect_response(lambda response: "q=san&" in response.url and "near=" in response.url):
            box.press_sequentially("san", delay=60)
        expect(page.locator("#status")).not_to_contain_text("289 cities")
        expect(options.first).to_contain_text("km away", timeout=10000)
        expect(options.first).to_contain_text("San Francisco")
        page.screenshot(path=os.path.join(output, "3-near-me.png"))

        # Click the map on Paris: the cities nearest the point clicked are listed (a pixel of
        # the map is about half a degree, so they are French towns near Paris, or Paris).
        canvas = page.locator("#map")
        bounds = canvas.bounding_box()
        x = bounds["x"] + (2.3488 + 180) / 360 * bounds["width"]
        y = bounds["y"] + (90 - 48.8534) / 180 * bounds["height"]
        page.mouse.click(x, y)
        expect(details.get_by_role("heading")).to_contain_text("Nearest to")
        expect(details.get_by_role("heading")).to_contain_text("N ")
        expect(details.get_by_role("listitem").first).to_contain_text("France")
        expect(details.get_by_role("listitem").first).to_contain_text("km away")
        page.screenshot(path=os.path.join(output, "4-map-click.png"))

        # An answer that arrives after a newer query's is dropped: "pari" is held back 1.5 s,
        # "wien" answers at once; the list must end on Vienna.
        def hold_back(route):
            if "q=pari&" in route.request.url or route.request.url.endswith("q=pari"):
                time.sleep(1.5)
            route.continue_()
        page.route("**/api/search?*", hold_back)
        page.get_by_role("switch", name="Near me").uncheck()
        box.fill("")
        box.press_sequentially("pari", delay=30)
        page.wait_for_timeout(300)
        box.fill("wien")
        expect(options.first).to_contain_text("Vienna", timeout=10000)
        page.wait_for_timeout(2000)
        expect(options.first).to_contain_text("Vienna")
        page.unroute("**/api/search?*")
        page.screenshot(path=os.path.join(output, "5-out-of-order.png"))

        # A bad request shows the server's message, not a crash.
        box.fill("x" * 300)
        expect(page.locator("#status")).to_contain_text("q: has 300 bytes", timeout=10000)

        assert not errors, f"page errors: {errors}"
        assert not requests_elsewhere, f"requests to other hosts: {requests_elsewhere}"
        browser.close()
    print(f"page test: passed; screenshots in {output}")
finally:
    server.stop()
