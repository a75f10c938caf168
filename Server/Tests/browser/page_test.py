#!/usr/bin/env python3
"""The page of city-server in a real browser: Debian's chromium, driven by playwright, offline.

Starts city-server on a free port over INDEX and, as a user would, at a laptop's size
(1280x720) and a phone's (390x844, touch): types "sna fran" and finds San Francisco first with
its typo said; moves through the list with the arrow keys and chooses with Enter (the list
closes, the box shows the city's label, the details appear in view and the map zooms to the
city); lists the cities near the choice (without the city itself); taps the map (the choice,
the typed text and the list go; the arrow keys and Enter do nothing); reads a Canadian region
in its short form; zooms and pans the map by wheel, keys, buttons, drag and pinch; switches
"near me" with a faked location; checks that an answer arriving after a newer one is dropped
and that a bad request's message is shown. Screenshots of each step are kept under OUTPUT
(desktop-*.png, phone-*.png).

Usage: page_test.py SERVER_BINARY INDEX OUTPUT_FOLDER
Needs: pip install playwright; apt-get install chromium (no browser is downloaded).
"""
import json, os, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from server_process import ServerProcess  # noqa: E402

from playwright.sync_api import expect, sync_playwright

server_binary, index, output = sys.argv[1:4]
os.makedirs(output, exist_ok=True)

SIZES = {
    "desktop": dict(viewport={"width": 1280, "height": 720}),
    "phone": dict(viewport={"width": 390, "height": 844}, device_scale_factor=3, is_mobile=True, has_touch=True),
}


def map_view(page):
    return json.loads(page.locator("#map").get_attribute("data-view"))


def map_point(page, lat, lon):
    """Where (lat, lon) is on the canvas, in page coordinates, for the view the map shows."""
    canvas = page.locator("#map")
    box = canvas.bounding_box()
    view = map_view(page)
    per_degree = view["scale"] * box["width"] / 360
    return (box["x"] + box["width"] / 2 + (lon - view["lon"]) * per_degree,
            box["y"] + box["height"] / 2 + (view["lat"] - lat) * per_degree)


def run(browser, base, name):
    shot = lambda step: page.screenshot(path=os.path.join(output, f"{name}-{step}.png"))
    # San Francisco's Ferry Building, as the faked position of "near me".
    context = browser.new_context(geolocation={"latitude": 37.7955, "longitude": -122.3937}, permissions=["geolocation"],
                                  locale="en-US", **SIZES[name])
    # Counts the answers to "pari" whose body the page has parsed, a task after the page's own
    # handler of that answer has run (the late-answer check below waits for it).
    context.add_init_script("""
        const parse = Response.prototype.json;
        window.lateAnswersHandled = 0;
        Response.prototype.json = function () {
            const late = /[?&]q=pari(&|$)/.test(this.url);
            return parse.call(this).then(value => {
                if (late) setTimeout(() => { window.lateAnswersHandled += 1; }, 0);
                return value;
            });
        };
    """)
    requests_elsewhere = []
    context.on("request", lambda request: requests_elsewhere.append(request.url) if not request.url.startswith(base) else None)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base)
    box = page.get_by_role("combobox", name="City")
    listbox = page.get_by_role("listbox", name="Cities")
    options = listbox.get_by_role("option")
    details = page.get_by_role("region", name="Selected city")
    status = page.locator("#status")

    # The placeholder's own example: San Francisco first, "San Fran" highlighted, its typo said.
    box.press_sequentially("sna fran", delay=60)
    expect(options.first).to_contain_text("San Francisco", timeout=10000)
    expect(options.first.locator("mark").first).to_have_text("San Fran")
    expect(options.first).to_contain_text("1 typo")
    expect(options.first).to_contain_text("CA, US")
    expect(box).to_have_attribute("aria-expanded", "true")
    shot("1-typed")

    # The arrow keys move the active option (aria-activedescendant); Enter chooses it.
    expect(options.first).to_have_attribute("aria-selected", "true")
    assert options.count() >= 2, f"only {options.count()} options for 'sna fran'"
    box.press("ArrowDown")
    expect(options.nth(1)).to_have_attribute("aria-selected", "true")
    expect(box).to_have_attribute("aria-activedescendant", "result-1")
    box.press("ArrowUp")
    expect(box).to_have_attribute("aria-activedescendant", "result-0")
    box.press("Enter")
    # The choice shows where the eye is: the list closes, the box holds the label, the details
    # are in view beside the box, and the map is zoomed onto the city.
    expect(listbox).to_be_hidden()
    expect(box).to_have_attribute("aria-expanded", "false")
    expect(box).to_have_value("San Francisco, CA, US")
    expect(details.get_by_role("heading", name="San Francisco, CA, US")).to_be_in_viewport()
    expect(box).to_be_in_viewport()
    expect(details).to_contain_text("37°46′")   # 37.77493 N in degrees, minutes, seconds
    expect(details).to_contain_text("122°25′")
    expect(status).to_contain_text("Chosen: \u2068San Francisco, CA, US\u2069")   # isolated from the sentence
    view = map_view(page)
    assert view["scale"] >= 8 and abs(view["lon"] - -122.42) < 1 and abs(view["lat"] - 37.77) < 1, f"map not on the city: {view}"
    # Nothing for the arrow keys to move through, and Enter opens nothing else.
    box.press("ArrowDown")
    box.press("Enter")
    expect(details.get_by_role("heading")).to_have_text("San Francisco, CA, US")
    shot("2-chosen")

    # From the keyboard: "Cities near here", focused, and Enter. The city itself is not listed.
    details.get_by_role("button", name="Cities near here").focus()
    page.keyboard.press("Enter")
    expect(details.get_by_role("heading")).to_have_text("Cities near \u2068San Francisco\u2069")
    nearby = details.get_by_role("listitem")
    expect(nearby.first).to_contain_text(" away")
    for item in nearby.all_inner_texts():
        assert not item.startswith("San Francisco ·"), f"the city lists itself: {item}"
    expect(status).to_contain_text("near \u2068San Francisco, CA, US\u2069")
    shot("3-near-here")

    # A tap on the map (on Oakland, across the bay at this zoom) lists the cities nearest the
    # point; the choice, the typed text and the list go, and the keys drive nothing hidden.
    x, y = map_point(page, 37.80, -122.27)
    page.mouse.click(x, y)
    expect(details.get_by_role("heading")).to_contain_text("Nearest to 37°")
    expect(nearby.first).to_contain_text(" away")
    expect(box).to_have_value("")
    expect(status).to_contain_text("cities near 37.8")
    expect(listbox).to_be_hidden()
    box.focus()
    box.press("ArrowDown")
    box.press("Enter")
    expect(details.get_by_role("heading")).to_contain_text("Nearest to 37°")
    expect(listbox).to_be_hidden()
    shot("4-map-tap")

    # Regions as people write them: "MB, CA", not GeoNames' "03".
    box.fill("winnipeg")
    expect(options.first).to_contain_text("Winnipeg", timeout=10000)
    expect(options.first.locator(".place")).to_have_text(" · MB, CA")
    shot("5-region")

    # Zoom and pan: buttons, keys, wheel, drag; pinch with two fingers on the phone.
    box.press("Escape")
    expect(listbox).to_be_hidden()
    page.get_by_role("button", name="Show the whole world").click()
    assert map_view(page)["scale"] == 1
    page.get_by_role("button", name="Zoom in").click()
    assert map_view(page)["scale"] == 2, map_view(page)
    page.locator("#map").focus()
    page.keyboard.press("+")
    assert map_view(page)["scale"] == 4, map_view(page)
    before = map_view(page)
    page.keyboard.press("ArrowRight")
    assert map_view(page)["lon"] > before["lon"], (before, map_view(page))
    page.keyboard.press("-")
    assert map_view(page)["scale"] == 2, map_view(page)
    canvas_box = page.locator("#map").bounding_box()
    center = (canvas_box["x"] + canvas_box["width"] / 2, canvas_box["y"] + canvas_box["height"] / 2)
    if name == "desktop":
        page.mouse.move(*center)
        page.mouse.wheel(0, -300)
        page.wait_for_function("JSON.parse(document.querySelector('#map').dataset.view).scale > 2")
        before = map_view(page)
        page.mouse.move(*center)
        page.mouse.down()
        page.mouse.move(center[0] - 120, center[1], steps=8)
        page.mouse.up()
        assert map_view(page)["lon"] > before["lon"], (before, map_view(page))
        expect(details.get_by_role("heading")).to_contain_text("Nearest to 37°")   # a drag is not a tap
    else:
        # Two fingers moving apart: a pinch, as Chromium's touch emulation reports it.
        session = context.new_cdp_session(page)
        before = map_view(page)["scale"]
        def touch(kind, spread):
            points = [] if kind == "touchEnd" else [
                {"x": center[0] - spread, "y": center[1], "id": 1}, {"x": center[0] + spread, "y": center[1], "id": 2}]
            session.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
        touch("touchStart", 20)
        for spread in range(30, 130, 10):
            touch("touchMove", spread)
        touch("touchEnd", 0)
        page.wait_for_function(f"JSON.parse(document.querySelector('#map').dataset.view).scale > {before * 2}")
        expect(details.get_by_role("heading")).to_contain_text("Nearest to 37°")   # a pinch is not a tap
    shot("6-zoomed")

    # "Near me" with the faked position: the results carry distances, the nearest first.
    page.get_by_role("switch", name="Near me").check()
    expect(page.locator("#near-status")).to_contain_text("Near 37.80, -122.39")
    box.fill("")
    with page.expect_response(lambda response: "q=san&" in response.url and "near=" in response.url):
        box.press_sequentially("san", delay=60)
    expect(options.first).to_contain_text("km away", timeout=10000)
    expect(options.first).to_contain_text("San Francisco")
    shot("7-near-me")

    # An answer that arrives after a newer query's is dropped: "pari" is held back until "wien"
    # is on screen, then let through; once the page has handled it, the list still shows Vienna.
    held = []
    def hold_back(route):
        if "q=pari&" in route.request.url or route.request.url.endswith("q=pari"):
            held.append(route)   # answered below, after the newer query's answer is shown
        else:
            route.continue_()
    page.route("**/api/search?*", hold_back)
    page.get_by_role("switch", name="Near me").uncheck()
    box.fill("")
    box.press_sequentially("pari", delay=30)
    while not held:
        page.wait_for_timeout(20)   # lets playwright deliver the route to the handler
    box.fill("wien")
    expect(options.first).to_contain_text("Vienna", timeout=10000)
    expect(status).to_contain_text("match")
    status_before = status.inner_text()
    for route in held:
        route.continue_()
    # Set by the init script once the late answer's body was parsed and the page's handler,
    # which runs in the microtasks after it, has run.
    page.wait_for_function("() => window.lateAnswersHandled > 0", timeout=10000)
    expect(options.first).to_contain_text("Vienna")
    assert status.inner_text() == status_before, f"the late answer changed the status: {status.inner_text()}"
    page.unroute("**/api/search?*")

    # A bad request shows the server's message, not a crash.
    box.fill("x" * 300)
    expect(status).to_contain_text("q: has 300 bytes", timeout=10000)
    shot("8-bad-request")

    assert not errors, f"page errors: {errors}"
    assert not requests_elsewhere, f"requests to other hosts: {requests_elsewhere}"
    context.close()


server = ServerProcess(server_binary, index)
try:
    print(f"page test: {server.base}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for name in SIZES:
            run(browser, server.base, name)
            print(f"page test: {name} passed")
        browser.close()
    print(f"page test: passed; screenshots in {output}")
finally:
    server.stop()
