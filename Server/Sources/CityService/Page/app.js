// The type-ahead page of city-server: no framework, no build step, no request to another host.
"use strict";

const input = document.getElementById("query");
const list = document.getElementById("results");
const status = document.getElementById("status");
const nearMe = document.getElementById("near-me");
const nearStatus = document.getElementById("near-status");
const details = document.getElementById("details");
const canvas = document.getElementById("map");

const DEBOUNCE_MS = 120;
let results = [];          // the options of the open list; empty when it is closed
let active = -1;           // the option the arrow keys are on
let selected = null;       // the city chosen: its details are shown and it is pinned on the map
let nearby = [];           // the cities listed by "Cities near here" or a map click
let here = null;           // {lat, lon} from "near me"
let clicked = null;        // the map point last clicked, while its nearest cities are listed
let sent = 0;              // requests sent: each response carries its number
let shown = 0;             // the newest response shown; older ones arriving late are dropped
let timer = 0;

// ---- Search as you type -------------------------------------------------------------------

input.addEventListener("input", () => {
  clearTimeout(timer);
  timer = setTimeout(search, DEBOUNCE_MS);
});

async function search() {
  const q = input.value.trim();
  const number = ++sent;
  if (q === "") { shown = number; render([]); status.textContent = ""; return; }
  const params = new URLSearchParams({ q, limit: "10" });
  if (here) params.set("near", `${here.lat.toFixed(4)},${here.lon.toFixed(4)}`);
  try {
    const response = await fetch(`/api/search?${params}`);
    const body = await response.json();
    if (number < shown) return;            // a later query's answer (or a choice) is on screen already
    shown = number;
    if (!response.ok) { render([]); status.textContent = body.error ? body.error.message : `error ${response.status}`; return; }
    render(body.results);
    status.textContent = body.count === 0 ? "No city matches."
      : `${body.count.toLocaleString()} ${body.count === 1 ? "city matches" : "cities match"}; ${body.results.length} shown (${body.tookMicroseconds} µs).`;
  } catch (error) {
    if (number >= shown) status.textContent = "The server did not answer.";
  }
}

/** Opens the list on `items`, the first one active; closes it when there are none. */
function render(items) {
  results = items;
  active = items.length > 0 ? 0 : -1;
  list.replaceChildren(...items.map((city, index) => option(city, index)));
  list.hidden = items.length === 0;
  input.setAttribute("aria-expanded", String(items.length > 0));
  updateActive();
  drawMap();
}

/** Closes the list: nothing for the arrow keys to move through until the next answer. */
function closeList() {
  clearTimeout(timer);
  shown = ++sent;                          // an answer still on its way is not shown
  render([]);
}

function option(city, index) {
  const item = document.createElement("li");
  item.id = `result-${index}`;
  item.setAttribute("role", "option");
  item.dataset.index = String(index);
  const name = document.createElement("bdi");
  name.className = "name";
  // The server writes highlightedName HTML-escaped, with only <mark> added.
  name.innerHTML = city.matchedName ? escapeHTML(city.name) : city.highlightedName;
  const place = document.createElement("span");
  place.className = "place";
  const where = document.createElement("bdi");
  where.textContent = city.locationLabel;
  place.append(" · ", where);
  item.append(name, place);
  const notes = [];
  if (city.matchedName) notes.push(`matched <bdi class="matched">${city.highlightedName}</bdi>`);
  if (city.edits > 0) notes.push(`${city.edits} ${city.edits === 1 ? "typo" : "typos"}`);
  if (city.skipsWords) notes.push("words skipped");
  if (city.population) notes.push(`${city.population.toLocaleString()} people`);
  if (city.distanceMeters !== undefined) notes.push(distanceText(city.distanceMeters));
  if (notes.length) {
    const line = document.createElement("span");
    line.className = "notes";
    line.innerHTML = notes.map(note => `<span class="note">${note}</span>`).join("");
    item.append(line);
  }
  item.addEventListener("mousedown", event => { event.preventDefault(); choose(index); });
  return item;
}

// ---- Keyboard: the ARIA combobox pattern ----------------------------------------------------

input.addEventListener("keydown", event => {
  if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    if (results.length === 0) return;
    event.preventDefault();
    const step = event.key === "ArrowDown" ? 1 : -1;
    active = (active + step + results.length) % results.length;
    updateActive();
  } else if (event.key === "Enter") {
    if (active >= 0) { event.preventDefault(); choose(active); }
  } else if (event.key === "Escape") {
    closeList();
  }
});

function updateActive() {
  for (const item of list.children) item.setAttribute("aria-selected", String(Number(item.dataset.index) === active));
  if (active >= 0) {
    input.setAttribute("aria-activedescendant", `result-${active}`);
    list.children[active].scrollIntoView({ block: "nearest" });
  } else {
    input.removeAttribute("aria-activedescendant");
  }
}

/** The user chose option `index`: the box shows its label, the list closes, the details open. */
function choose(index) {
  const city = results[index];
  if (city) pick(city);
}

/** Shows `city` as the choice: its label in the box, its details below it, the map on it. */
function pick(city) {
  selected = city;
  clicked = null;
  nearby = [];
  input.value = city.label;
  closeList();
  status.textContent = `Chosen: ${isolated(city.label)}.`;
  showCity(city);
  zoomTo(city.lon, city.lat);
}

// ---- Details ---------------------------------------------------------------------------------

function showCity(city) {
  details.hidden = false;
  const rows = [
    ["Where", [city.region, city.countryName || city.country].filter(Boolean).join(", ")],
    ["Population", city.population ? city.population.toLocaleString() : "unknown"],
    ["Coordinates", `${city.lat.toFixed(4)}, ${city.lon.toFixed(4)}`],
    ["", `${dms(city.lat, "N", "S")} ${dms(city.lon, "E", "W")}`],
    ["Id", String(city.id)],
  ];
  if (city.matchedName) rows.push(["Matched", city.matchedName]);
  if (city.regionISO) rows.push(["Region code", city.regionISO]);
  if (city.distanceMeters !== undefined) rows.push(["Distance", distanceText(city.distanceMeters)]);
  const heading = document.createElement("h2");
  heading.textContent = city.label;
  heading.dir = "auto";
  const table = document.createElement("dl");
  for (const [term, value] of rows) {
    const dt = document.createElement("dt"); dt.textContent = term;
    const dd = document.createElement("dd"); dd.textContent = value; dd.dir = "auto";
    table.append(dt, dd);
  }
  // The map's nearest-cities lookup, from the keyboard too: the cities around this one.
  const around = document.createElement("button");
  around.type = "button";
  around.textContent = "Cities near here";
  around.addEventListener("click", () => listNearest(city.lat, city.lon, city));
  details.replaceChildren(heading, table, around);
  details.scrollIntoView({ block: "nearest" });
}

/** Degrees, minutes and seconds: 48°51′24″N. */
function dms(value, positive, negative) {
  const total = Math.round(Math.abs(value) * 3600);
  const degrees = Math.floor(total / 3600), minutes = Math.floor(total % 3600 / 60), seconds = total % 60;
  return `${degrees}°${String(minutes).padStart(2, "0")}′${String(seconds).padStart(2, "0")}″${value >= 0 ? positive : negative}`;
}

function distanceText(meters) {
  return meters < 1000 ? `${Math.round(meters)} m away` : `${(meters / 1000).toLocaleString(undefined, { maximumFractionDigits: meters < 10000 ? 1 : 0 })} km away`;
}

/** Text from the index inside a sentence, isolated (U+2068 … U+2069) so that a right-to-left
 *  or unterminated override character in a name cannot reorder the words around it. */
function isolated(text) {
  return `\u2068${text}\u2069`;
}

function escapeHTML(text) {
  return text.replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// ---- Near me -------------------------------------------------------------------------------

nearMe.addEventListener("change", () => {
  if (!nearMe.checked) { here = null; nearStatus.textContent = ""; search(); return; }
  if (!navigator.geolocation) { nearMe.checked = false; nearStatus.textContent = "This browser cannot tell where you are."; return; }
  nearStatus.textContent = "Finding you…";
  navigator.geolocation.getCurrentPosition(position => {
    here = { lat: position.coords.latitude, lon: position.coords.longitude };
    nearStatus.textContent = `Near ${here.lat.toFixed(2)}, ${here.lon.toFixed(2)}`;
    search();
  }, () => {
    nearMe.checked = false;
    here = null;
    nearStatus.textContent = "Location not available.";
  }, { maximumAge: 600000, timeout: 10000 });
});

// ---- Nearest cities: of a point clicked, or around the city chosen ----------------------------

/** Lists the cities nearest to (lat, lon): around `city` (which is left out of the list), or
 *  around a point clicked on the map (which replaces the choice and the typed text). */
async function listNearest(lat, lon, city = null) {
  if (city === null) {
    selected = null;
    clicked = { lat, lon };
    input.value = "";
  }
  closeList();
  drawMap();
  const params = new URLSearchParams({ lat: lat.toFixed(4), lon: lon.toFixed(4), limit: city ? "9" : "8" });
  const number = shown;
  const response = await fetch(`/api/nearest?${params}`);
  const body = await response.json();
  if (number !== shown) return;            // something newer was typed or chosen meanwhile
  if (!response.ok) { status.textContent = body.error ? body.error.message : `error ${response.status}`; return; }
  const cities = body.results.filter(other => !city || other.id !== city.id).slice(0, 8);
  showNearest(cities, lat, lon, city);
}

function showNearest(cities, lat, lon, city) {
  nearby = cities;
  details.hidden = false;
  const heading = document.createElement("h2");
  heading.textContent = city ? `Cities near ${isolated(city.name)}` : `Nearest to ${dms(lat, "N", "S")} ${dms(lon, "E", "W")}`;
  const items = document.createElement("ol");
  items.className = "nearby";
  for (const other of cities) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = "#";
    link.textContent = other.name;
    link.addEventListener("click", event => { event.preventDefault(); pick(other); });
    const where = document.createElement("bdi");
    where.textContent = other.locationLabel;
    item.append(link, " · ", where, ` · ${distanceText(other.distanceMeters)}`);
    items.append(item);
  }
  details.replaceChildren(heading, items);
  status.textContent = `${cities.length} ${cities.length === 1 ? "city" : "cities"} near ${city ? isolated(city.label) : `${lat.toFixed(2)}, ${lon.toFixed(2)}`}.`;
  drawMap();
  details.scrollIntoView({ block: "nearest" });
}

// ---- The map: Natural Earth's countries, equirectangular, zoomed and panned -------------------

let world = null;
const context = canvas.getContext("2d");
const MAX_SCALE = 64;
const view = { scale: 1, lon: 0, lat: 0 };   // how many times the whole-world width, and the center
let ratio = 1;                               // device pixels per CSS pixel

/** Device pixels per degree. */
function pixelsPerDegree() { return view.scale * canvas.width / 360; }

function project(lon, lat) {
  const k = pixelsPerDegree();
  return [(lon - view.lon) * k + canvas.width / 2, (view.lat - lat) * k + canvas.height / 2];
}

/** The longitude and latitude under a point of the canvas, in CSS pixels from its corner. */
function unproject(x, y) {
  const k = pixelsPerDegree();
  return [view.lon + (x * ratio - canvas.width / 2) / k, view.lat - (y * ratio - canvas.height / 2) / k];
}

/** Keeps the scale in 1…MAX_SCALE and the world on the canvas. */
function clampView() {
  view.scale = Math.min(MAX_SCALE, Math.max(1, view.scale));
  const k = pixelsPerDegree();
  const halfWidth = canvas.width / 2 / k, halfHeight = canvas.height / 2 / k;
  view.lon = halfWidth >= 180 ? 0 : Math.min(180 - halfWidth, Math.max(-180 + halfWidth, view.lon));
  view.lat = halfHeight >= 90 ? 0 : Math.min(90 - halfHeight, Math.max(-90 + halfHeight, view.lat));
}

/** Zooms by `factor` keeping the place under (x, y) (CSS pixels) where it is. */
function zoomAt(factor, x, y) {
  const [lon, lat] = unproject(x, y);
  view.scale *= factor;
  view.scale = Math.min(MAX_SCALE, Math.max(1, view.scale));
  const k = pixelsPerDegree();
  view.lon = lon - (x * ratio - canvas.width / 2) / k;
  view.lat = lat + (y * ratio - canvas.height / 2) / k;
  clampView();
  drawMap();
}

function zoomCenter(factor) { zoomAt(factor, canvas.clientWidth / 2, canvas.clientHeight / 2); }

function panBy(dx, dy) {   // CSS pixels
  const k = pixelsPerDegree();
  view.lon -= dx * ratio / k;
  view.lat += dy * ratio / k;
  clampView();
  drawMap();
}

function zoomTo(lon, lat) {
  view.scale = Math.max(view.scale, 8);
  view.lon = lon;
  view.lat = lat;
  clampView();
  drawMap();
}

function resetView() {
  view.scale = 1; view.lon = 0; view.lat = 0;
  clampView();
  drawMap();
}

/** Sizes the canvas to its box: 2:1 where there is room, taller on a phone. */
function resize() {
  ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth || 960;
  const height = Math.round(width >= 600 ? width / 2 : Math.min(width * 0.9, 420));
  canvas.style.height = `${height}px`;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  clampView();
  drawMap();
}

function drawMap() {
  context.fillStyle = "#dbe7f5";
  context.fillRect(0, 0, canvas.width, canvas.height);
  if (world) {
    context.fillStyle = "#f3efe4";
    context.strokeStyle = "#c9c2ad";
    context.lineWidth = 0.6 * ratio;
    for (const feature of world.features) {
      context.beginPath();
      for (const polygon of feature.geometry.coordinates) {
        for (const ring of polygon) {
          ring.forEach(([lon, lat], i) => { const [x, y] = project(lon, lat); i === 0 ? context.moveTo(x, y) : context.lineTo(x, y); });
          context.closePath();
        }
      }
      context.fill("evenodd");
      context.stroke();
    }
  }
  for (const city of results) dot(city.lon, city.lat, 3.5, "#2456d6", "#ffffff");
  for (const city of nearby) dot(city.lon, city.lat, 3.5, "#2456d6", "#ffffff");
  if (here) dot(here.lon, here.lat, 5, "#14a37f", "#ffffff");
  if (clicked) cross(clicked.lon, clicked.lat);
  if (selected) {
    dot(selected.lon, selected.lat, 7, "#d6336c", "#ffffff");
    const [x, y] = project(selected.lon, selected.lat);
    context.font = `600 ${14 * ratio}px system-ui, sans-serif`;
    context.lineWidth = 3 * ratio;
    context.strokeStyle = "#ffffff";
    const label = selected.name;
    const width = context.measureText(label).width;
    const left = Math.min(Math.max(x + 10 * ratio, 4 * ratio), canvas.width - width - 4 * ratio);
    context.strokeText(label, left, y - 8 * ratio);
    context.fillStyle = "#1d2433";
    context.fillText(label, left, y - 8 * ratio);
  }
  // What the map shows, for assistive tools and tests: the scale and the center.
  canvas.dataset.view = JSON.stringify({ scale: view.scale, lon: view.lon, lat: view.lat });
}

function dot(lon, lat, radius, fill, stroke) {
  const [x, y] = project(lon, lat);
  context.beginPath();
  context.arc(x, y, radius * ratio, 0, 2 * Math.PI);
  context.fillStyle = fill;
  context.fill();
  context.lineWidth = 1.5 * ratio;
  context.strokeStyle = stroke;
  context.stroke();
}

function cross(lon, lat) {
  const [x, y] = project(lon, lat);
  const size = 6 * ratio;
  context.strokeStyle = "#1d2433";
  context.lineWidth = 2 * ratio;
  context.beginPath();
  context.moveTo(x - size, y); context.lineTo(x + size, y);
  context.moveTo(x, y - size); context.lineTo(x, y + size);
  context.stroke();
}

// Pointers: a tap or click lists the nearest cities; a drag pans; two fingers pinch to zoom.
const pointers = new Map();
let dragged = false;
let pinch = null;   // {distance, x, y} of the two pointers at the last move

function canvasPoint(event) {
  const box = canvas.getBoundingClientRect();
  return [event.clientX - box.left, event.clientY - box.top];
}

canvas.addEventListener("pointerdown", event => {
  canvas.setPointerCapture(event.pointerId);
  pointers.set(event.pointerId, canvasPoint(event));
  if (pointers.size === 1) dragged = false;
  if (pointers.size === 2) { pinch = pinchOf([...pointers.values()]); dragged = true; }
});

canvas.addEventListener("pointermove", event => {
  if (!pointers.has(event.pointerId)) return;
  const [x, y] = canvasPoint(event);
  const [previousX, previousY] = pointers.get(event.pointerId);
  pointers.set(event.pointerId, [x, y]);
  if (pointers.size === 1) {
    if (!dragged && Math.hypot(x - previousX, y - previousY) < 4) { pointers.set(event.pointerId, [previousX, previousY]); return; }
    dragged = true;
    panBy(x - previousX, y - previousY);
  } else if (pointers.size === 2 && pinch) {
    const now = pinchOf([...pointers.values()]);
    panBy(now.x - pinch.x, now.y - pinch.y);
    if (pinch.distance > 0) zoomAt(now.distance / pinch.distance, now.x, now.y);
    pinch = now;
  }
});

function pinchOf([a, b]) {
  return { distance: Math.hypot(a[0] - b[0], a[1] - b[1]), x: (a[0] + b[0]) / 2, y: (a[1] + b[1]) / 2 };
}

function pointerEnded(event) {
  if (!pointers.has(event.pointerId)) return;
  const wasTap = pointers.size === 1 && !dragged && event.type === "pointerup";
  pointers.delete(event.pointerId);
  if (pointers.size < 2) pinch = null;
  if (wasTap) {
    const [lon, lat] = unproject(...canvasPoint(event));
    listNearest(Math.max(-90, Math.min(90, lat)), Math.max(-180, Math.min(180, lon)));
  }
}
canvas.addEventListener("pointerup", pointerEnded);
canvas.addEventListener("pointercancel", pointerEnded);

canvas.addEventListener("wheel", event => {
  event.preventDefault();
  const [x, y] = canvasPoint(event);
  zoomAt(Math.exp(-event.deltaY * 0.0015), x, y);
}, { passive: false });

canvas.addEventListener("keydown", event => {
  const step = 60;
  const actions = {
    "+": () => zoomCenter(2), "=": () => zoomCenter(2), "-": () => zoomCenter(0.5), "_": () => zoomCenter(0.5),
    "0": resetView, "Home": resetView,
    "ArrowLeft": () => panBy(step, 0), "ArrowRight": () => panBy(-step, 0),
    "ArrowUp": () => panBy(0, step), "ArrowDown": () => panBy(0, -step),
  };
  const action = actions[event.key];
  if (action) { event.preventDefault(); action(); }
});

document.getElementById("zoom-in").addEventListener("click", () => zoomCenter(2));
document.getElementById("zoom-out").addEventListener("click", () => zoomCenter(0.5));
document.getElementById("zoom-reset").addEventListener("click", resetView);
window.addEventListener("resize", resize);

fetch("/world.geojson").then(response => response.json()).then(data => { world = data; drawMap(); });
resize();
