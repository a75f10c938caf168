#!/usr/bin/env python3
"""Writes the web page's world map, Server/Sources/CityService/Page/world.geojson, from Natural
Earth's 1:110m countries (public domain), as the geopandas 0.14.4 wheel on PyPI carries them
(geopandas/datasets/naturalearth_lowres). Run once; the output is committed with its
provenance (Server/Sources/CityService/Page/PROVENANCE.md). Needs only pip and the standard
library: the shapefile and its dBase table are read here.

Usage: Scripts/world-map.py [WHEEL]   (without WHEEL, `pip download geopandas==0.14.4 --no-deps`)
"""
import io, json, os, struct, subprocess, sys, tempfile, zipfile

OUTPUT = os.path.join(os.path.dirname(__file__), "..", "Server", "Sources", "CityService", "Page", "world.geojson")
MEMBER = "geopandas/datasets/naturalearth_lowres/naturalearth_lowres"


def wheel_path():
    if len(sys.argv) > 1:
        return sys.argv[1]
    folder = tempfile.mkdtemp()
    subprocess.run([sys.executable, "-m", "pip", "download", "geopandas==0.14.4", "--no-deps", "-q", "-d", folder], check=True)
    return os.path.join(folder, next(name for name in os.listdir(folder) if name.endswith(".whl")))


def polygons(shp):
    """The polygon records of an ESRI shapefile: a list of rings (lists of (x, y)) per record."""
    assert struct.unpack(">i", shp[0:4])[0] == 9994, "not a shapefile"
    position, records = 100, []
    while position < len(shp):
        _, length = struct.unpack(">ii", shp[position:position + 8])
        body = shp[position + 8:position + 8 + 2 * length]
        position += 8 + 2 * length
        shape_type = struct.unpack("<i", body[0:4])[0]
        if shape_type == 0:
            records.append([])
            continue
        assert shape_type == 5, f"shape type {shape_type} is not a polygon"
        parts, points = struct.unpack("<ii", body[36:44])
        starts = list(struct.unpack(f"<{parts}i", body[44:44 + 4 * parts])) + [points]
        coordinates = struct.unpack(f"<{2 * points}d", body[44 + 4 * parts:44 + 4 * parts + 16 * points])
        rings = [[(coordinates[2 * i], coordinates[2 * i + 1]) for i in range(starts[p], starts[p + 1])] for p in range(parts)]
        records.append(rings)
    return records


def table(dbf):
    """The rows of a dBase III table, as dicts of stripped strings."""
    count, header_length, record_length = struct.unpack("<IHH", dbf[4:12])
    fields, position = [], 32
    while dbf[position] != 0x0D:
        name = dbf[position:position + 11].split(b"\0")[0].decode("ascii")
        fields.append((name, dbf[position + 16]))
        position += 32
    rows = []
    for index in range(count):
        start = header_length + index * record_length + 1
        row, offset = {}, start
        for name, width in fields:
            row[name] = dbf[offset:offset + width].decode("utf-8", "replace").strip()
            offset += width
        rows.append(row)
    return rows


def ring_area(ring):
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1])) / 2


def main():
    with zipfile.ZipFile(wheel_path()) as wheel:
        shp, dbf = wheel.read(MEMBER + ".shp"), wheel.read(MEMBER + ".dbf")
    features = []
    for rings, row in zip(polygons(shp), table(dbf)):
        # Shapefile rings: outer ones clockwise (negative signed area here), holes counter-clockwise.
        polygons_out = []
        for ring in rings:
            points = [[round(x, 2), round(y, 2)] for x, y in ring]
            deduplicated = [point for i, point in enumerate(points) if i == 0 or point != points[i - 1]]
            if len(deduplicated) < 4:
                continue
            if ring_area(ring) <= 0 or not polygons_out:
                polygons_out.append([deduplicated])
            else:
                polygons_out[-1].append(deduplicated)
        features.append({"type": "Feature", "properties": {"name": row.get("name", ""), "iso_a3": row.get("iso_a3", "")},
                         "geometry": {"type": "MultiPolygon", "coordinates": polygons_out}})
    collection = {"type": "FeatureCollection", "features": features}
    with open(OUTPUT, "w") as output:
        json.dump(collection, output, separators=(",", ":"))
        output.write("\n")
    print(f"{os.path.normpath(OUTPUT)}: {len(features)} countries, {os.path.getsize(OUTPUT):,} bytes")


if __name__ == "__main__":
    main()
