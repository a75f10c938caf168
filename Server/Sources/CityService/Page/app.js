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
let results = [];          // the results listed
let active = -1;           // the option the arrow keys are on
let selected = null;       // the city whose details are shown
let here = null;       // {lat, lon} from "near me"
let clicked = null;        // the map point last clicked
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
  if (q === "") { shown = number; render([], 0); status.textContent = ""; return; }
  const params = new URLSearchParams({ q, limit: "10" });
  if (here) params.set("near", `${here.lat.toFixed(4)},${here.lon.toFixed(4)}`);
  try {
    const response = await fetch(`/api/search?${params}`);
    const body = await response.json();
    if (number < shown) return;            // a later query's answer is on screen already
    shown = number;
    if (!response.ok) { render([], 0); status.textContent = body.error ? body.error.message : `error ${response.status}`; return; }
    render(body.results, body.count);
    status.textContent = body.count === 0 ? "No city matches."
      : `${body.count.toLocaleString()} ${body.count === 1 ? "city matches" : "cities match"}; ${body.results.length} shown (${body.tookMicroseconds} µs).`;
  } catch (error) {
    if (number >= shown) status.textContent = "The server did not answer.";
  }
}

function render(items, count) {
  results = items;
  active = items.length > 0 ? 0 : -1;
  list.replaceChildren(...items.map((city, index) => option(city, index)));
  list.hidden = items.length === 0;
  input.setAttribute("aria-expanded", String(items.length > 0));
  updateActive();
  drawMap();
}

function option(city, index) {
  const item = document.createElement("li");
  item.id = `result-${index}`;
  item.setAttribute("role", "option");
  item.dataset.index = String(index);
  const name = document.createElement("span");
  name.className = "name";
  // The server writes highlightedName HTML-escaped, with only <mark> added.
  name.innerHTML = city.matchedName ? escapeHTML(city.name) : city.highlightedName;
  const place = document.createElement("span");
  place.className = "place";
  place.textContent = " · " + [city.regionCode && ["US", "CA", "AU"].includes(city.country) ? city.regionCode : city.region,
                               city.countryName || city.country].filter(Boolean).join(", ");
  item.append(name, place);
  const notes = [];
  if (city.matchedName) notes.push(`matched <span class="matched">${city.highlightedName}</span>`);
  if (city.edits > 0) notes.push(`${city.edits} ${city.edits === 1 ? "typo" : "typos"}`);
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
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
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

function choose(index) {
  const city = results[index];
  if (!city) return;
  active = index;
  updateActive();
  showCity(city);
}

// ---- Details ---------------------------------------------------------------------------------

function showCity(city) {
  selected = city;
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
  heading.textContent = city.name;
  const table = document.createElement("dl");
  for (const [term, value] of rows) {
    const dt = document.createElement("dt"); dt.textContent = term;
    const dd = document.createElement("dd"); dd.textContent = value;
    table.append(dt, dd);
  }
  // The map's nearest-cities lookup, from the keyboard too: the cities around this one.
  const around = document.createElement("button");
  around.type = "button";
  around.textContent = "Cities near here";
  around.addEventListener("click", () => listNearest(city.lat, city.lon));
  details.replaceChildren(heading, table, around);
  drawMap();
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

// ---- The map: Natural Earth's countries, equirectangular -------------------------------------

let world = null;
const context = canvas.getContext("2d");

function project(lon, lat) {
  return [(lon + 180) / 360 * canvas.width, (90 - lat) / 180 * canvas.height];
}

function drawMap() {
  context.fillStyle = "#dbe7f5";
  context.fillRect(0, 0, canvas.width, canvas.height);
  if (world) {
    context.fillStyle = "#f3efe4";
    context.strokeStyle = "#c9c2ad";
    context.lineWidth = 0.6;
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
  if (here) dot(here.lon, here.lat, 5, "#14a37f", "#ffffff");
  if (clicked) cross(clicked.lon, clicked.lat);
  if (selected) {
    dot(selected.lon, selected.lat, 7, "#d6336c", "#ffffff");
    const [x, y] = project(selected.lon, selected.lat);
    context.font = "600 14px system-ui, sans-serif";
    context.lineWidth = 3;
    context.strokeStyle = "#ffffff";
    const label = selected.name;
    const width = context.measureText(label).width;
    const left = Math.min(Math.max(x + 10, 4), canvas.width - width - 4);
    context.strokeText(label, left, y - 8);
    context.fillStyle = "#1d2433";
    context.fillText(label, left, y - 8);
  }
}

function dot(lon, lat, radius, fill, stroke) {
  const [x, y] = project(lon, lat);
  context.beginPath();
  context.arc(x, y, radius, 0, 2 * Math.PI);
  context.fillStyle = fill;
  context.fill();
  context.lineWidth = 1.5;
  context.strokeStyle = stroke;
  context.stroke();
}

function cross(lon, lat) {
  const [x, y] = project(lon, lat);
  context.strokeStyle = "#1d2433";
  context.lineWidth = 2;
  context.beginPath();
  context.moveTo(x - 6, y); context.lineTo(x + 6, y);
  context.moveTo(x, y - 6); context.lineTo(x, y + 6);
  context.stroke();
}

canvas.addEventListener("click", event => {
  const box = canvas.getBoundingClientRect();
  listNearest(90 - (event.clientY - box.top) / box.height * 180, (event.clientX - box.left) / box.width * 360 - 180);
});

async function listNearest(lat, lon) {
  clicked = { lat, lon };
  drawMap();
  const params = new URLSearchParams({ lat: lat.toFixed(4), lon: lon.toFixed(4), limit: "8" });
  const response = await fetch(`/api/nearest?${params}`);
  const body = await response.json();
  if (!response.ok) { status.textContent = body.error ? body.error.message : `error ${response.status}`; return; }
  showNearest(body.results, lat, lon);
}

function showNearest(cities, lat, lon) {
  details.hidden = false;
  const heading = document.createElement("h2");
  heading.textContent = `Nearest to ${dms(lat, "N", "S")} ${dms(lon, "E", "W")}`;
  const items = document.createElement("ol");
  items.className = "nearby";
  for (const city of cities) {
    const item = document.createElement("li");
    const button = document.createElement("a");
    button.href = "#";
    button.textContent = city.name;
    button.addEventListener("click", event => { event.preventDefault(); showCity(city); });
    item.append(button, ` · ${[city.region, city.countryName || city.country].filter(Boolean).join(", ")} · ${distanceText(city.distanceMeters)}`);
    items.append(item);
  }
  details.replaceChildren(heading, items);
  results = cities;
  render(cities, cities.length);
  list.hidden = true;
  input.setAttribute("aria-expanded", "false");
}

fetch("/world.geojson").then(response => response.json()).then(data => { world = data; drawMap(); });
drawMap();
