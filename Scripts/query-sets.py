#!/usr/bin/env python3
"""The query sets the speed measurements share, one query per line.

Usage: Scripts/query-sets.py load-mix|type-ahead [--data CITIES_JSON]

  load-mix    the 2,000 seeded queries city-server is loaded with (Scripts/load-server.sh):
              of the 5,000 most populous cities, a prefix of the name (40%), the name with
              two letters swapped (20%), the first 12 characters of an alternate name (15%),
              the name and the country code (15%), the name's first word (10%).
  type-ahead  every query of Scripts/search-quality.py's rule-built set (its "near" queries
              as their text), sent the way a search box sends it: each prefix of the query,
              one keystroke more each time ("s", "sh", "sha", "shan"). Leading and trailing
              spaces of a prefix are kept, as typed.

Both are deterministic (seeded), so two readers or two releases are timed on the same queries.
"""
import argparse
import importlib.util
import json
import lzma
import os
import random
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def cities_of(path):
    with lzma.open(path) if path.endswith(".xz") else open(path, "rb") as stream:
        return json.load(stream)


def load_mix(cities):
    generator = random.Random(45)
    big = sorted((c for c in cities if c.get("population")), key=lambda c: -c["population"])[:5000]

    def swapped(word):
        if len(word) < 5:
            return word
        i = generator.randrange(1, len(word) - 1)
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]

    queries = []
    for _ in range(2000):
        city = generator.choice(big)
        name = city["name"].lower()
        kind = generator.random()
        if kind < 0.4:
            query = name[:generator.randint(2, max(2, len(name)))]
        elif kind < 0.6:
            query = swapped(name)
        elif kind < 0.75 and city.get("alternatenames"):
            query = generator.choice(city["alternatenames"])[:12]
        elif kind < 0.9:
            query = name + " " + city["country"].lower()
        else:
            query = name.split(" ")[0]
        queries.append(query)
    return queries


def type_ahead(cities):
    # The quality script's own rules (its file name has a hyphen: loaded by path).
    spec = importlib.util.spec_from_file_location("search_quality", os.path.join(ROOT, "Scripts", "search-quality.py"))
    quality = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(quality)
    quality.load_places()
    quality.NAMESAKES.update(quality.namesakes_of_larger(cities))
    queries = []
    for _, query, _ in quality.query_set(cities):
        text = query[0] if isinstance(query, tuple) else query
        queries.extend(text[:length] for length in range(1, len(text) + 1))
    return queries


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", choices=["load-mix", "type-ahead"])
    parser.add_argument("--data", default=os.path.join(ROOT, "Data", "cities500.json.xz"))
    arguments = parser.parse_args()
    cities = cities_of(arguments.data)
    queries = load_mix(cities) if arguments.set == "load-mix" else type_ahead(cities)
    for query in queries:
        if "\n" in query:
            sys.exit(f"query-sets: a query holds a line break: {query!r}")
        print(query)


if __name__ == "__main__":
    main()
