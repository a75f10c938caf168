#!/usr/bin/env python3
"""Simulates issue 44's precision rules before they are built (docs/journal, 2026-11-27).

Runs every query of Scripts/search-quality.py (recall kinds, and the precision set) and the
issue's judged examples through today's city-search in the recommended mode with --limit 50,
then orders those 50 again by a population-order weight with the rules switched on one at a
time, and prints the recall and precision tables of each variant. Today's order is the
baseline's; the rules only move matches down (or an initialism up within the 50), so the top
10 of the 50 is what an index ordered by the rule would give, but for promotions from beyond.

Usage: docs/journal/precision-simulation.py --index FILE [--rules a,b,...]
"""
import argparse
import importlib.util
import json
import lzma
import math
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
spec = importlib.util.spec_from_file_location("quality", os.path.join(ROOT, "Scripts", "search-quality.py"))
quality = importlib.util.module_from_spec(spec)
spec.loader.exec_module(quality)
plain, words, is_latin = quality.plain, quality.words, quality.is_latin

JUDGED = ["los", "can", "she", "tao", "new york", "pheonix", "sao paulo", "st petersburg", "santiago", "los angeles", "lisboa", "wien",
          "sf", "la", "nyc", "paris", "zurich", "madrid", "chicago", "beijing", "boston", "hong kong",
          "peking", "bombay", "bogata"]


def machine_made(name):
    """WORDS.md §5, extended: Latin letters with no capital, or 3+ letters and no vowel, or
    Latin letters mixed with another script's."""
    letters = [c for c in name if c.isalpha()]
    if not letters:
        return False
    latin = [c for c in letters if ord(c) < 0x250 or 0x1E00 <= ord(c) <= 0x1EFF]
    if latin and len(latin) != len(letters):
        return True
    if len(latin) != len(letters):
        return False
    capital = any(c != c.lower() for c in letters)
    vowel = any(plain(c)[:1] in "aeiouy" for c in letters)
    return not capital or (len(letters) >= 3 and not vowel)


class Rules:
    def __init__(self, cities, enabled):
        self.enabled = enabled
        self.by_id = {c["_id"]: c for c in cities}
        # Famous names: the plain primary names of cities of 100,000 or more, and the
        # alternates of such a city that are word prefixes of its primary name ("New York").
        self.famous = {}
        for c in cities:
            population = c.get("population") or 0
            if population < 100_000:
                continue
            primary = tuple(words(c["name"]))
            names = {primary}
            for a in c.get("alternatenames") or []:
                w = tuple(words(a))
                if w and len(w) < len(primary) and primary[:len(w)] == w:
                    names.add(w)
            for n in names:
                if n and population > self.famous.get(n, (0, None))[0]:
                    self.famous[n] = (population, c["_id"])
        # District parents: cities of 50,000 or more by plain primary name.
        self.parents = {}
        for c in cities:
            if (c.get("population") or 0) >= 50_000:
                self.parents.setdefault(tuple(words(c["name"])), []).append(c)
        self.district_cache = {}
        self.borrowed_cache = {}

    def district_parent_words(self, city):
        """The parent's name words when the city is a district of it (else 0)."""
        if city["_id"] in self.district_cache:
            return self.district_cache[city["_id"]]
        w = tuple(words(city["name"]))
        result = 0
        for k in range(1, len(w)):
            for parent in self.parents.get(w[:k], []):
                population = parent.get("population") or 0
                if parent["_id"] == city["_id"] or parent["country"] != city["country"] or population <= (city.get("population") or 0):
                    continue
                radius = 2 + 10 * math.sqrt(population / 1e6)
                if quality.distance_km(parent["coord"]["lat"], parent["coord"]["lon"], city["coord"]["lat"], city["coord"]["lon"]) <= radius:
                    result = max(result, k)
        self.district_cache[city["_id"]] = result
        return result

    def spells_initials(self, city, letters):
        """Whether `letters` are the initials of the first words of one of the city's names
        of two or more words ("sf": San Francisco, "nyc": New York City, "hcmc")."""
        for name in [city["name"]] + list(city.get("alternatenames") or []):
            w = words(name)
            if len(w) >= 2 and len(letters) <= len(w) and "".join(x[0] for x in w[:len(letters)]) == letters:
                return True
        return False

    def is_borrowed(self, city, alternate):
        key = (city["_id"], alternate)
        if key in self.borrowed_cache:
            return self.borrowed_cache[key]
        own = words(city["name"])
        a = words(alternate)
        population = city.get("population") or 0
        result = []
        for i in range(len(a)):
            for j in range(i + 1, len(a) + 1):
                s = tuple(a[i:j])
                famous = self.famous.get(s)
                if not famous or famous[1] == city["_id"]:
                    continue
                if any(tuple(own[k:k + len(s)]) == s for k in range(len(own))):
                    continue  # the city's own name has it ("Ciudad de Mexico" on Mexico City)
                if len(s) < len(a) or famous[0] > population:
                    result.append((i, j))
        self.borrowed_cache[key] = result
        return result

    def weight(self, result, query):
        city = self.by_id[result["id"]]
        population = city.get("population") or 0
        matched = result.get("matchedName")
        edits = result.get("edits", 0)
        weight = float(population)
        if matched:
            weight /= 10
            qw = words(query)
            mw = words(matched)
            later = not (mw[:1] and qw[:1] and mw[0].startswith(qw[0][:len(mw[0])]) or (qw and mw and qw[0].startswith(mw[0])))
            if machine_made(matched) if "junk" in self.enabled else quality_machine_made(matched):
                weight /= 10
            elif later:
                weight /= 10
            if "borrowed" in self.enabled and within_spans(words(query), mw, self.is_borrowed(city, matched), edits):
                weight /= 1000
            if (("initialism" in self.enabled or "capitals" in self.enabled) and 2 <= len(matched) <= 5
                    and matched.isalpha() and matched.isupper() and plain(matched) == plain(query).replace(" ", "")
                    and ("capitals" in self.enabled or self.spells_initials(city, plain(matched)))):
                weight = population * 10.0
        if "junk" in self.enabled and matched and machine_made(matched) and (edits or ends_inside_word(words(query), words(matched))):
            weight = 0
        if "district" in self.enabled and not matched:
            parent_words = self.district_parent_words(city)
            if parent_words and within_spans(words(query), words(city["name"]), [(0, parent_words)], edits):
                weight /= DISTRICT_DIVISOR
        divisor = 100 if "exact" in self.enabled else 10
        for _ in range(edits):
            weight /= divisor
        return weight


def ends_inside_word(query_words, name_words):
    """Whether the query's last word is a strict prefix of the name word it matches (at the
    first place it matches)."""
    for k in range(len(name_words) - len(query_words) + 1):
        if all(name_words[k + i].startswith(q) if i == len(query_words) - 1 else name_words[k + i] == q
               for i, q in enumerate(query_words)):
            return len(name_words[k + len(query_words) - 1]) > len(query_words[-1])
    return False


ABBREVIATIONS = {"st": "saint", "ste": "sainte", "sta": "santa", "sto": "santo", "ft": "fort", "mt": "mount", "pt": "port"}


def distance(a, b):
    """Damerau-Levenshtein (optimal string alignment) distance of a to the best prefix of b."""
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            row[j] = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return min(rows[-1])


def word_matches(query_word, name_word, last, budget):
    query_word = ABBREVIATIONS.get(query_word, query_word)
    if last:
        return name_word.startswith(query_word) or (budget and distance(query_word, name_word) <= budget)
    return name_word == query_word or (budget and distance(query_word, name_word) <= budget and len(name_word) <= len(query_word) + budget)


def within_spans(query_words, name_words, spans, budget=0):
    """Whether the query, matched at some word of the name, stays inside one of the spans
    (word ranges of a famous city's name in it): a match through the borrowed part only."""
    for start, end in spans:
        for k in range(start, end):
            if k + len(query_words) <= end and all(word_matches(q, name_words[k + i], i == len(query_words) - 1, budget)
                                                   for i, q in enumerate(query_words)):
                return True
    return False


def quality_machine_made(name):
    letters = [c for c in name if c.isalpha()]
    if not letters or not all(ord(c) < 0x250 or 0x1E00 <= ord(c) <= 0x1EFF for c in letters):
        return False
    capital = any(c != c.lower() for c in letters)
    vowel = any(plain(c)[:1] in "aeiouy" for c in letters)
    return not capital or (len(letters) >= 3 and not vowel)


CACHE = {}
DISTRICT_DIVISOR = float(os.environ.get("DISTRICT_DIVISOR", "100"))


def candidates(city_search, index, query):
    near = []
    key = json.dumps(query)
    if key in CACHE:
        return CACHE[key]
    if isinstance(query, tuple):
        query, point = query
        near = ["--near", point]
    output = subprocess.run([city_search, "--index", index, "--json", "--limit", "50", "--match", "words",
                             "--order", "population", "--typos", "auto"] + near + ["--", query],
                            check=True, capture_output=True, text=True).stdout
    CACHE[key] = json.loads(output)["results"]
    return CACHE[key]


def reorder(results, rules, query):
    text = query[0] if isinstance(query, tuple) else query
    if not rules.enabled:
        return results
    scored = [(-rules.weight(r, text), i, r) for i, r in enumerate(results)]
    return [r for _, _, r in sorted(scored)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--index", required=True)
    parser.add_argument("--city-search", default=os.path.join(ROOT, ".build", "release", "city-search"))
    parser.add_argument("--show", action="store_true", help="print the judged queries' top 5 per variant")
    arguments = parser.parse_args()
    with lzma.open(os.path.join(ROOT, "Data", "cities500.json.xz")) as stream:
        cities = json.load(stream)
    quality.load_places()
    quality.NAMESAKES.update(quality.namesakes_of_larger(cities))
    pairs = [(kind, query, city) for kind, query, city in quality.query_set(cities) if kind != "near"]
    population_of = {c["_id"]: c.get("population") or 0 for c in cities}
    by_population = sorted(cities, key=lambda c: (-(c.get("population") or 0), c["_id"]))
    chosen = [c for c in by_population if is_latin(c["name"]) and words(c["name"])][:quality.PER_KIND]
    variants = [[], ["none"], ["exact"], ["junk"], ["borrowed"], ["district"], ["capitals"], ["initialism"],
                ["borrowed", "district", "initialism", "junk"], ["borrowed", "district", "initialism", "junk", "exact"]]
    kinds = [k for k, _ in quality.KINDS if k != "near"]
    print("| rules | " + " | ".join(kinds) + " | all (top 1 / 5) | typo above | borrowed | district | precision all |")
    print("|---|" + "---|" * (len(kinds) + 5))
    for enabled in variants:
        rules = Rules(cities, set(enabled))
        found = {k: [0, 0, 0] for k in kinds}
        for kind, query, city in pairs:
            ids = [r["id"] for r in reorder(candidates(arguments.city_search, arguments.index, query), rules, query)][:10]
            position = ids.index(city["_id"]) if city["_id"] in ids else None
            found[kind][0] += 1
            found[kind][1] += position == 0
            found[kind][2] += position is not None and position < 5
        clean = {k: 0 for k in quality.PRECISION_KINDS}
        all_clean = 0
        for city in chosen:
            query = " ".join(words(city["name"]))
            results = reorder(candidates(arguments.city_search, arguments.index, query), rules, query)[:10]
            faults = quality.precision_faults(city, results, population_of)
            for k in quality.PRECISION_KINDS:
                clean[k] += k not in faults
            all_clean += not faults
        total = [sum(found[k][i] for k in kinds) for i in range(3)]
        cell = lambda c: f"{100 * c[1] / c[0]:.0f} / {100 * c[2] / c[0]:.0f}"
        n = len(chosen)
        print(f"| {'+'.join(enabled) or 'today'} | " + " | ".join(cell(found[k]) for k in kinds) + f" | {cell(total)} | "
              + " | ".join(f"{100 * clean[k] / n:.0f}%" for k in quality.PRECISION_KINDS) + f" | {100 * all_clean / n:.0f}% |")
        if arguments.show:
            for query in JUDGED:
                top = reorder(candidates(arguments.city_search, arguments.index, query), rules, query)[:5]
                print(f"    {query}: " + "; ".join(f"{r['name']} {r['country']}" + (f" [{r['matchedName']}]" if r.get("matchedName") else "")
                                                 + (f" ({r['edits']})" if r.get("edits") else "") for r in top))


if __name__ == "__main__":
    sys.exit(main())
