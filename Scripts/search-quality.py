#!/usr/bin/env python3
"""Search quality benchmark: how often the city a person means is in the top 1 / 5 / 10.

Builds a query set from Data/cities500.json.xz by rule (below), runs every query through
`city-search --json --limit 10` in each mode (prefix or words matching, alphabetical or
population order) and prints, per mode and per kind of query, the share of queries whose
expected city is among the first 1, 5 and 10 results, as a Markdown table.

Rules (each kind takes the 100 most populous cities it applies to; ties by id):
  prefix       the first 4 letters of the name, lowercase, accents stripped   ("shan" -> Shanghai)
  later word   the first 5 letters of the longest word after the first        ("york" -> New York City)
  punctuation  the name with hyphens, apostrophes and periods as spaces, or,
               for a name without them, its spaces as hyphens                 ("xi an" -> Xi'an)
  alternate    the first 6 letters of the first alternate name (in the list's
               order) in Latin letters, 5+ letters long, not all capitals, and
               sharing no word start with the name                            ("canton" -> Guangzhou)
  typo 1       the plain name (4+ letters, Latin) with one random edit: a deleted letter, an
               inserted or substituted letter that is a neighbour on a QWERTY keyboard of the
               one typed there, or two adjacent letters swapped, at any position including
               the first (seeded per city)                                    ("sjanghai" -> Shanghai)
  typo 2       the same with two edits, for names of 8+ letters                ("bangkkko" -> Bangkok)
  run together the first two words of a name of two or more words, typed without a space
                                                                              ("newyork" -> New York City)
  transliterated  a name with ä, ö, ü, å or ø, those typed ae, oe, ue, aa, oe, the rest
               plain                                                          ("duesseldorf" -> Düsseldorf)
  skipped word the first and the last word of a name of three or more words, in Latin
               letters (the middle words left out)                            ("rio janeiro" -> Rio de Janeiro)
  whole alternate  the whole first alternate name that the alternate rule takes (not its
               first 6 letters)                                               ("canton" -> Guangzhou)
  abbreviated  a name starting with Saint, Sainte, Santa, Santo, Sankt, Fort, Mount, Mont, Port,
               Puerto or Punta, that word abbreviated (st, ste, sta, sto, st, ft, mt, mt, pt,
               pto, pta) and the next word                                    ("ft lauderdale")
  qualified    a city whose plain name a more populous city also has, typed with its place in
               one of four ways, in turn: the region's abbreviation (its name where it has none),
               ", " and the region's name, the country's name, ", " and the country's code
               (Data/places.json)                                             ("portland me" -> Portland, Maine)
  near         the same cities, their plain name typed from a point up to about 20 km from the
               city (seeded), passed as --near                                ("portland" near Portland, Maine)

Precision (the recommended mode only): for each of the 100 most populous cities with a name in
Latin letters, its plain name as the query ("paris", "new york", "wien" is not: Vienna's name
is "Vienna"), the share of queries free of each kind of intruder:
  typo above   no other city above the intended one that matched with typos
  borrowed     no other, less populous city above the intended one or in the top 5 that
               matched by an alternate name containing the query's words ("New York Van Java"
               on Jakarta, "Saint Petersburg" on Eureka)
  district     no part of the intended city above it or above a city of the query's name: a
               city whose name is the query and more words, within 2 km + 10 km x
               sqrt(population / 1 million) of it ("Paris 15 Vaugirard", "Zürich (Kreis 4)")
The judged queries of the issue (`wien`, `sf`, ...) are not in the rule-built set; WORDS.md's
tests hold them.

Precision in the top 5 (issue 58; the recommended mode only): the same queries for the 1,000
most populous cities with a name in Latin letters, and the whole top 5 judged, not only what
ranks above the intended city. The share of queries free of each kind of intruder:
  forgiven     no match with typos in the top 5 above a city typed exactly: with E cities typed
               exactly (the first 50 matches of the same search without typos that are no
               intruders themselves: borrowed, a district, or an alternate name matched that does
               not contain the query's words whole), none of the first min(E, 5) matched with typos
  borrowed     no other, less populous city in the top 5 that matched by an alternate name
               containing the query's words
  district     no part of a city of the query's name in the top 5: a city whose name is the
               query and more words, within 2 km + 10 km x sqrt(population / 1 million) of one
  whole name   the intended city in the top 3

Whole name beside larger names (issue 58, WORDS.md §14; the recommended mode only): the cities
of 50,000 people or more with a name in Latin letters, each the most populous of its name, that
is the first words of a more populous city's name ("porto": Porto Alegre), their own name as the
query; the share with the city in the top 1 and in the top 3.

Named by another city's alternate (issue 58, WORDS.md §13's named-city rule; the recommended
mode only): the cities of 20,000 people or more with a name in Latin letters, each the most
populous of its name, whose name is, whole, an alternate name of a more populous city ("st
george": Freetown's "Saint George"), their own name as the query; the share in the top 10
and above every such city matched by that alternate, of all of them and of those with at least
a hundredth of the largest such city's people (WORDS.md leaves the others to the larger city:
"canton").
Usage: Scripts/search-quality.py [--index FILE] [--data FILE] [--city-search PATH]
Without --index it builds Data/ into .build/quality.cidx with build-index (release build).
"""
import argparse
import json
import lzma
import os
import random
import re
import subprocess
import sys
import unicodedata

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SEPARATORS = re.compile(r"[\s\-\u2010-\u2015\u2212'\u2018\u2019\u02bc`.,/\\()\[\]]+")
MODES = [("prefix", "alphabetical", "0"), ("prefix", "population", "0"), ("words", "alphabetical", "0"),
         ("words", "population", "0"), ("prefix", "population", "auto"), ("words", "population", "auto")]
KEYBOARD = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]
PER_KIND = 100


def plain(text):
    """Lowercase, accents stripped (what a person types on a plain keyboard)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if unicodedata.category(c) != "Mn")


def words(text):
    return [w for w in SEPARATORS.split(plain(text)) if w]


def is_latin(text):
    return all(not c.isalpha() or ord(c) < 0x250 or 0x1E00 <= ord(c) <= 0x1EFF for c in text)


def prefix_query(city):
    key = plain(city["name"])
    return key[:4] if len(words(city["name"])) > 0 and len(key) >= 4 else None


def later_word_query(city):
    parts = words(city["name"])
    if len(parts) < 2:
        return None
    longest = max(parts[1:], key=len)
    return longest[:5] if len(longest) >= 3 else None


def punctuation_query(city):
    name = city["name"]
    if re.search(r"[\-\u2010-\u2015'\u2018\u2019.]", name):
        return " ".join(w for w in re.split(r"[\s\-\u2010-\u2015'\u2018\u2019.]+", plain(name)) if w)
    parts = plain(name).split()
    return "-".join(parts) if len(parts) >= 2 else None


def alternate_query(city):
    alternate = first_distinct_alternate(city)
    return alternate[:6].strip() if alternate else None


def whole_alternate_query(city):
    return first_distinct_alternate(city)


def first_distinct_alternate(city):
    """The first alternate name in Latin letters, 5+ letters, not all capitals, sharing no word
    start with the name, as a plain word key."""
    starts = set(words(city["name"]))
    for alternate in city.get("alternatenames") or []:
        letters = [c for c in alternate if c.isalpha()]
        if not is_latin(alternate) or len(letters) < 5 or alternate.isupper():
            continue
        alternate_words = words(alternate)
        if any(w.startswith(s) or s.startswith(w) for w in alternate_words for s in starts):
            continue
        return " ".join(alternate_words)
    return None


def neighbours(letter):
    """The letters next to `letter` on a QWERTY keyboard (same row and the rows above and below)."""
    for row_number, row in enumerate(KEYBOARD):
        if letter in row:
            column = row.index(letter)
            near = set()
            for other_row in KEYBOARD[max(0, row_number - 1): row_number + 2]:
                near.update(other_row[max(0, column - 1): column + 2])
            near.discard(letter)
            return sorted(near)
    return list("etaoinsr")


def with_edits(text, count, seed):
    """`text` with `count` random edits (deletion, neighbour insertion or substitution, swap)."""
    chooser = random.Random(seed)
    letters = list(text)
    for _ in range(count):
        position = chooser.randrange(len(letters))
        kind = chooser.randrange(4)
        if kind == 0 and len(letters) > 1:
            del letters[position]
        elif kind == 1:
            letters.insert(position, chooser.choice(neighbours(letters[position])))
        elif kind == 2:
            letters[position] = chooser.choice(neighbours(letters[position]))
        elif position + 1 < len(letters) and letters[position] != letters[position + 1]:
            letters[position], letters[position + 1] = letters[position + 1], letters[position]
        else:
            del letters[position]
    return "".join(letters)


def typo_query(edits, minimum_length):
    def rule(city):
        key = plain(city["name"])
        if not is_latin(city["name"]) or len(key) < minimum_length or not re.fullmatch(r"[a-z ]+", key):
            return None
        return with_edits(key, edits, city["_id"])
    return rule


ABBREVIATIONS = {"saint": "st", "sainte": "ste", "santa": "sta", "santo": "sto", "sankt": "st", "fort": "ft",
                 "mount": "mt", "mont": "mt", "port": "pt", "puerto": "pto", "punta": "pta"}


def transliterated_query(city):
    name = city["name"].casefold()
    if not any(c in name for c in "äöüåø"):
        return None
    for letter, digraph in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("å", "aa"), ("ø", "oe")):
        name = name.replace(letter, digraph)
    return " ".join(words(name))


def abbreviated_query(city):
    parts = words(city["name"])
    if len(parts) >= 2 and parts[0] in ABBREVIATIONS:
        return ABBREVIATIONS[parts[0]] + " " + parts[1]
    return None


def skipped_word_query(city):
    parts = words(city["name"])
    return parts[0] + " " + parts[-1] if len(parts) >= 3 and is_latin(city["name"]) else None


def run_together_query(city):
    parts = words(city["name"])
    return parts[0] + parts[1] if len(parts) >= 2 and is_latin(city["name"]) else None


KINDS = [("prefix", prefix_query), ("later word", later_word_query),
         ("punctuation", punctuation_query), ("alternate", alternate_query),
         ("typo 1", typo_query(1, 4)), ("typo 2", typo_query(2, 8)), ("run together", run_together_query),
         ("skipped word", skipped_word_query), ("whole alternate", whole_alternate_query), ("abbreviated", abbreviated_query), ("transliterated", transliterated_query)]


PLACES = {}


def load_places():
    with open(os.path.join(ROOT, "Data", "places.json"), encoding="utf-8") as stream:
        places = json.load(stream)
    PLACES["countries"] = {country["code"]: country for country in places["countries"]}
    PLACES["regions"] = {(region["country"], region["code"]): region for region in places["regions"]}


def namesakes_of_larger(cities):
    """The ids of cities whose plain name a more populous city of the list also has."""
    best = {}
    for city in cities:
        key = plain(city["name"])
        if key not in best or (city.get("population") or 0) > (best[key].get("population") or 0):
            best[key] = city
    return {city["_id"] for city in cities if best[plain(city["name"])]["_id"] != city["_id"]}


NAMESAKES = set()


def qualified_query(city):
    if city["_id"] not in NAMESAKES or not is_latin(city["name"]):
        return None
    region = PLACES["regions"].get((city["country"], city.get("region")))
    country = PLACES["countries"].get(city["country"])
    if region is None or country is None:
        return None
    name = plain(city["name"])
    form = city["_id"] % 4
    if form == 0:
        iso = region.get("iso") or ""
        abbreviation = iso.split("-", 1)[1] if "-" in iso and iso.split("-", 1)[1].isalpha() else None
        return f"{name} {plain(abbreviation or region['name'])}"
    if form == 1:
        return f"{name}, {plain(region['name'])}"
    if form == 2:
        return f"{name} {plain(country['name'])}"
    return f"{name}, {city['country'].lower()}"


def near_query(city):
    if city["_id"] not in NAMESAKES or not is_latin(city["name"]):
        return None
    generator = random.Random(city["_id"])
    latitude = max(-90.0, min(90.0, city["coord"]["lat"] + generator.uniform(-0.15, 0.15)))
    longitude = city["coord"]["lon"] + generator.uniform(-0.15, 0.15)
    longitude = longitude - 360 if longitude > 180 else longitude + 360 if longitude < -180 else longitude
    return (plain(city["name"]), f"{latitude:.5f},{longitude:.5f}")


KINDS += [("qualified", qualified_query), ("near", near_query)]


def query_set(cities):
    by_population = sorted(cities, key=lambda c: (-(c.get("population") or 0), c["_id"]))
    pairs = []
    for kind, rule in KINDS:
        taken = 0
        for city in by_population:
            query = rule(city)
            if query:
                pairs.append((kind, query, city))
                taken += 1
                if taken == PER_KIND:
                    break
    return pairs


def run(city_search, index, query, match, rank, typos):
    near = []
    if isinstance(query, tuple):
        query, point = query
        near = ["--near", point]
    output = subprocess.run([city_search, "--index", index, "--json", "--limit", "10",
                             "--match", match, "--order", rank, "--typos", typos] + near + ["--", query],
                            check=True, capture_output=True, text=True).stdout
    return [result["id"] for result in json.loads(output)["results"]]


def distance_km(a_lat, a_lon, b_lat, b_lon):
    import math
    p1, p2 = math.radians(a_lat), math.radians(b_lat)
    dp, dl = p2 - p1, math.radians(b_lon - a_lon)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0088 * math.asin(min(1.0, math.sqrt(h)))


PRECISION_KINDS = ["typo above", "borrowed", "district"]


def precision_faults(city, results, population_of):
    """The precision kinds a result list breaks for `city`'s own name as the query."""
    query_words = words(city["name"])
    query = " ".join(query_words)
    ids = [result["id"] for result in results]
    position = ids.index(city["_id"]) if city["_id"] in ids else len(results)
    population = city.get("population") or 0
    radius = 2 + 10 * (population / 1e6) ** 0.5
    faults = set()
    same_name_positions = [i for i, result in enumerate(results)
                           if i != position and " ".join(words(result["name"])) == query]
    for i, result in enumerate(results):
        if result["id"] == city["_id"]:
            continue
        if i < position and result.get("edits", 0) > 0:
            faults.add("typo above")
        matched = result.get("matchedName")
        if matched and (i < position or i < 5) and population_of.get(result["id"], 0) < population:
            matched_words = words(matched)
            if any(matched_words[k:k + len(query_words)] == query_words for k in range(len(matched_words))):
                faults.add("borrowed")
        name_words = words(result["name"])
        if (len(name_words) > len(query_words) and name_words[:len(query_words)] == query_words
                and distance_km(city["coord"]["lat"], city["coord"]["lon"], result["lat"], result["lon"]) <= radius
                and (i < position or any(i < other for other in same_name_positions))):
            faults.add("district")
    return faults


TOP5_KINDS = ["forgiven", "borrowed", "district", "whole name"]
TOP5_CITIES = 1000


def intrusions(city, result, query_words, population_of, named):
    """The kinds of intruder `result` is for `city`'s own name as the query: "borrowed" (a less
    populous city matched by an alternate name containing the query's words), "district" (a
    city whose name is the query and more words, near a city named the query), "inside a word"
    (an alternate name matched that does not contain the query's words whole)."""
    kinds = set()
    if result["id"] == city["_id"]:
        return kinds
    matched = result.get("matchedName")
    if matched:
        matched_words = words(matched)
        if any(matched_words[k:k + len(query_words)] == query_words for k in range(len(matched_words))):
            if population_of.get(result["id"], 0) < (city.get("population") or 0):
                kinds.add("borrowed")
        else:
            kinds.add("inside a word")
    name_words = words(result["name"])
    if len(name_words) > len(query_words) and name_words[:len(query_words)] == query_words:
        for parent in named:
            radius = 2 + 10 * ((parent.get("population") or 0) / 1e6) ** 0.5
            if distance_km(parent["coord"]["lat"], parent["coord"]["lon"], result["lat"], result["lon"]) <= radius:
                kinds.add("district")
                break
    return kinds


def top5_faults(city, results, exact_results, population_of, cities_named):
    """The kinds of intruder in the top 5 for `city`'s own name as the query (issue 58), where
    `exact_results` are the first matches of the same search without typos."""
    query_words = words(city["name"])
    top = results[:5]
    ids = [result["id"] for result in results]
    faults = set()
    if city["_id"] not in ids[:3]:
        faults.add("whole name")
    # The cities whose own name is the query: a district of any of them intrudes.
    named = cities_named.get(" ".join(query_words), [])
    # The cities typed exactly: the exact matches that are no intruders themselves.
    typed_exactly = sum(1 for result in exact_results if not intrusions(city, result, query_words, population_of, named))
    if any(result.get("edits", 0) > 0 for result in top[:min(typed_exactly, 5)]):
        faults.add("forgiven")
    for result in top:
        faults |= intrusions(city, result, query_words, population_of, named) & {"borrowed", "district"}
    return faults


def recommended_search(city_search, index, query, limit, typos="auto"):
    """The JSON answer of the recommended mode (with `typos`) for `query`, its first `limit` results."""
    return json.loads(subprocess.run([city_search, "--index", index, "--json", "--limit", str(limit), "--match", "words",
                                      "--order", "population", "--typos", typos, "--", query],
                                     check=True, capture_output=True, text=True).stdout)


def largest_latin_cities(cities, count):
    """The `count` most populous cities with a name in Latin letters (ties by id)."""
    by_population = sorted(cities, key=lambda c: (-(c.get("population") or 0), c["_id"]))
    return [city for city in by_population if is_latin(city["name"]) and words(city["name"])][:count]


def judge(chosen, kinds, faults_of, heading, decimals):
    """Prints the share of `chosen` free of each of `kinds` (`faults_of(city)` says which it
    breaks) as one table row under `heading`; returns the cities with faults."""
    clean = {kind: 0 for kind in kinds}
    all_clean = 0
    faulty = []
    for city in chosen:
        faults = faults_of(city)
        for kind in kinds:
            clean[kind] += kind not in faults
        all_clean += not faults
        if faults:
            faulty.append((city["name"], sorted(faults)))
    n = len(chosen)
    print(f"\n{heading}\n")
    print("| " + " | ".join(kinds) + " | all |")
    print("|" + "---|" * (len(kinds) + 1))
    print("| " + " | ".join(f"{100 * clean[kind] / n:.{decimals}f}%" for kind in kinds)
          + f" | **{100 * all_clean / n:.{decimals}f}%** |")
    return faulty


def top5_precision_table(city_search, index, cities):
    population_of = {city["_id"]: city.get("population") or 0 for city in cities}
    chosen = largest_latin_cities(cities, TOP5_CITIES)
    cities_named = {}
    for city in cities:
        cities_named.setdefault(" ".join(words(city["name"])), []).append(city)

    def faults_of(city):
        query = " ".join(words(city["name"]))
        return top5_faults(city, recommended_search(city_search, index, query, 5)["results"],
                           recommended_search(city_search, index, query, 50, typos="0")["results"], population_of, cities_named)
    return judge(chosen, TOP5_KINDS, faults_of,
                 f"Precision in the top 5, `--match words --order population --typos auto`: share of the {len(chosen)} most "
                 "populous cities' own names (Latin letters) as queries with no intruder of each kind in the top 5 "
                 "(whole name: the city in the top 3).", decimals=1)


WHOLE_NAME_FLOOR = 50_000


def whole_name_table(city_search, index, cities):
    """Prints the whole-name table (issue 58, WORDS.md §14); returns the cities not in the top 3."""
    more_populous_by_first_words = {}
    largest_of_name = {}
    for other in cities:
        name_words = words(other["name"])
        population = other.get("population") or 0
        for k in range(1, len(name_words)):
            first = " ".join(name_words[:k])
            more_populous_by_first_words[first] = max(more_populous_by_first_words.get(first, 0), population)
        whole = " ".join(name_words)
        largest_of_name[whole] = max(largest_of_name.get(whole, 0), population)
    chosen = [city for city in sorted(cities, key=lambda c: (-(c.get("population") or 0), c["_id"]))
              if (city.get("population") or 0) >= WHOLE_NAME_FLOOR and is_latin(city["name"]) and words(city["name"])
              and largest_of_name[" ".join(words(city["name"]))] == (city.get("population") or 0)
              and more_populous_by_first_words.get(" ".join(words(city["name"])), 0) > (city.get("population") or 0)]
    top1 = top3 = 0
    missed = []
    for city in chosen:
        ids = [result["id"] for result in recommended_search(city_search, index, " ".join(words(city["name"])), 3)["results"]]
        top1 += ids[:1] == [city["_id"]]
        top3 += city["_id"] in ids
        if city["_id"] not in ids:
            missed.append((city["name"], ["not in the top 3"]))
    n = len(chosen)
    print(f"\nWhole name beside larger names, `--match words --order population --typos auto`: the {n} cities of "
          f"{WHOLE_NAME_FLOOR:,} people or more (Latin letters), each the most populous of its name, whose name is the "
          "first words of a more populous city's name (\"porto\": Porto Alegre), their own name as the query.\n")
    print("| top 1 | top 3 |\n|---|---|")
    print(f"| {100 * top1 / n:.1f}% | **{100 * top3 / n:.1f}%** |")
    return missed


NAMED_CITY_FLOOR = 20_000


def named_city_table(city_search, index, cities):
    """Prints the named-city table (issue 58, WORDS.md §13's named-city rule); returns the
    cities not above every city that goes by their name."""
    largest_of_name = {}
    for city in cities:
        whole = " ".join(words(city["name"]))
        largest_of_name[whole] = max(largest_of_name.get(whole, 0), city.get("population") or 0)
    # The more populous cities with an alternate name that is, whole, another name's words.
    borrowers = {}
    for city in cities:
        own = " ".join(words(city["name"]))
        for alternate in city.get("alternatenames") or []:
            key = " ".join(words(alternate))
            if key and key != own and key in largest_of_name:
                borrowers.setdefault(key, set()).add(city["_id"])
    population_of = {city["_id"]: city.get("population") or 0 for city in cities}
    chosen = []
    for city in sorted(cities, key=lambda c: (-(c.get("population") or 0), c["_id"])):
        population = city.get("population") or 0
        key = " ".join(words(city["name"]))
        if population < NAMED_CITY_FLOOR or not is_latin(city["name"]) or not key or largest_of_name[key] != population:
            continue
        larger = [other for other in borrowers.get(key, ()) if population_of[other] > population]
        if larger:
            chosen.append((city, key, larger))
    above = within_hundredth = within_above = 0
    missed = []
    for city, key, larger in chosen:
        results = recommended_search(city_search, index, key, 10)["results"]
        ids = [result["id"] for result in results]
        position = ids.index(city["_id"]) if city["_id"] in ids else len(ids)
        # A larger city above it by that alternate, not by a name of its own ("st petersburg":
        # Saint Petersburg by its own name, abbreviated, is no fault).
        borrowing = [result["id"] for result in results[:position]
                     if result["id"] in larger and " ".join(words(result.get("matchedName") or "")) == key]
        is_above = city["_id"] in ids and not borrowing
        largest_borrower = max(population_of[other] for other in larger)
        counts = 100 * (city.get("population") or 0) >= largest_borrower
        above += is_above
        within_hundredth += counts
        within_above += counts and is_above
        if not is_above:
            fault = "below a city that goes by its name" if borrowing else "not in the top 10"
            missed.append((city["name"], [fault + ("" if counts else " (under a hundredth of its people)")]))
    n, m = len(chosen), within_hundredth
    print(f"\nNamed by another city's alternate, `--match words --order population --typos auto`: the {n} cities of "
          f"{NAMED_CITY_FLOOR:,} people or more (Latin letters), each the most populous of its name, whose name is, whole, "
          "an alternate name of a more populous city (\"st george\": Freetown), their own name as the query; the share "
          f"in the top 10 and above every such city matched by that alternate, of all and of the {m} with a hundredth of "
          "the largest one's people or more.\n")
    print("| all | a hundredth or more |\n|---|---|")
    print(f"| {100 * above / n:.1f}% | **{100 * within_above / m:.1f}%** |")
    return missed


def precision_table(city_search, index, cities):
    population_of = {city["_id"]: city.get("population") or 0 for city in cities}
    chosen = largest_latin_cities(cities, PER_KIND)

    def faults_of(city):
        return precision_faults(city, recommended_search(city_search, index, " ".join(words(city["name"])), 10)["results"],
                                population_of)
    return judge(chosen, PRECISION_KINDS, faults_of,
                 f"Precision, `--match words --order population --typos auto`: share of the {len(chosen)} most populous "
                 "cities' own names (Latin letters) as queries with no intruder of each kind.", decimals=0)


def print_intruders(faulty, faulty_top5):
    print("\nPrecision queries with intruders:")
    for name, faults in faulty:
        print(f"- \"{name}\": {', '.join(faults)}")
    print("\nTop-5 precision queries with intruders:")
    for name, faults in faulty_top5:
        print(f"- \"{name}\": {', '.join(faults)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index")
    parser.add_argument("--data", default=os.path.join(ROOT, "Data", "cities500.json.xz"))
    parser.add_argument("--city-search", default=os.path.join(ROOT, ".build", "release", "city-search"))
    parser.add_argument("--recommended-only", action="store_true",
                        help="run only the recommended mode (words, population, automatic typos)")
    parser.add_argument("--misses", action="store_true",
                        help="after the table, list the queries whose city is not first in the last mode run, "
                             "and the precision queries with intruders")
    parser.add_argument("--precision-only", action="store_true", help="print only the precision table")
    arguments = parser.parse_args()
    index = arguments.index
    if index is None:
        subprocess.run(["swift", "build", "-c", "release", "--package-path", ROOT], check=True, stdout=subprocess.DEVNULL)
        index = os.path.join(ROOT, ".build", "quality.cidx")
        subprocess.run([os.path.join(ROOT, ".build", "release", "build-index"), arguments.data, "-o", index, "--quiet"], check=True)
    with lzma.open(arguments.data) if arguments.data.endswith(".xz") else open(arguments.data, "rb") as stream:
        cities = json.load(stream)
    load_places()
    NAMESAKES.update(namesakes_of_larger(cities))
    pairs = query_set(cities)
    if arguments.precision_only:
        faulty = precision_table(arguments.city_search, index, cities)
        faulty_top5 = (top5_precision_table(arguments.city_search, index, cities) + whole_name_table(arguments.city_search, index, cities)
                       + named_city_table(arguments.city_search, index, cities))
        if arguments.misses:
            print_intruders(faulty, faulty_top5)
        return 0

    print(f"{len(pairs)} (query, expected city) pairs from {os.path.basename(arguments.data)}, "
          f"{PER_KIND} per kind; share of queries whose city is in the top 1 / 5 / 10.\n")
    print("| mode | " + " | ".join(kind for kind, _ in KINDS) + " | all |")
    print("|---|" + "---|" * (len(KINDS) + 1))
    examples = {}
    modes = MODES[-1:] if arguments.recommended_only else MODES
    misses = []
    for match, rank, typos in modes:
        misses = []
        found = {kind: [0, 0, 0, 0] for kind, _ in KINDS}
        for kind, query, city in pairs:
            ids = run(arguments.city_search, index, query, match, rank, typos)
            position = ids.index(city["_id"]) if city["_id"] in ids else None
            counts = found[kind]
            counts[0] += 1
            for slot, k in enumerate((1, 5, 10), start=1):
                counts[slot] += position is not None and position < k
            examples.setdefault(kind, (query, city["name"]))
            if position != 0:
                misses.append((kind, query, city["name"], position))
        total = [sum(found[kind][i] for kind, _ in KINDS) for i in range(4)]

        def cell(counts):
            n = counts[0]
            return " / ".join(f"{100 * counts[i] / n:.0f}%" for i in (1, 2, 3))

        print(f"| `--match {match} --order {rank}" + (f" --typos {typos}" if typos != "0" else "") + "` | " + " | ".join(cell(found[kind]) for kind, _ in KINDS)
              + f" | **{cell(total)}** |")
    faulty = precision_table(arguments.city_search, index, cities)
    faulty_top5 = (top5_precision_table(arguments.city_search, index, cities) + whole_name_table(arguments.city_search, index, cities)
                   + named_city_table(arguments.city_search, index, cities))
    if arguments.misses:
        print_intruders(faulty, faulty_top5)
        print("\nNot first in the last mode:")
        for kind, query, name, position in misses:
            print(f"- {kind}: \"{query}\" -> {name}: " + ("not in the top 10" if position is None else f"at {position + 1}"))
    print("\nExamples: " + "; ".join(f"{kind}: \"{query}\" -> {name}" for kind, (query, name) in examples.items()))


if __name__ == "__main__":
    sys.exit(main())
