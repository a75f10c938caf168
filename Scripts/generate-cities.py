#!/usr/bin/env python3
"""Writes a synthetic but realistic city list of N cities, for scale tests of build-index.

Usage: Scripts/generate-cities.py N [--seed S] [--alternates A] > cities.json

Trained on Data/cities500.json.xz (the package's dataset): names come from a character
trigram Markov model of its names (a tenth of them reuse a real name as is, as real lists
repeat "San José" or "Springfield"); countries follow its country frequencies; populations
are drawn from its populations (half the cities have none); each city gets on average A
alternate names (default 1), generated the same way. Ids are 1...N, coordinates uniform.
Streaming: memory stays flat whatever N is. Deterministic for a given seed.
"""
import argparse
import json
import lzma
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "Data", "cities500.json.xz")
START, END = "\x02", "\x03"


def train(names):
    """Trigram counts: (previous two characters) -> list of next characters (with repeats)."""
    model = {}
    for name in names:
        padded = START + START + name + END
        for i in range(2, len(padded)):
            model.setdefault(padded[i - 2:i], []).append(padded[i])
    return model


def generate(model, rng, maximum_length=40):
    context, out = START + START, []
    while len(out) < maximum_length:
        following = model.get(context)
        if not following:
            break
        character = rng.choice(following)
        if character == END:
            break
        out.append(character)
        context = context[1] + character
    return "".join(out).strip() or "Nowhere"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("count", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--alternates", type=float, default=1.0)
    arguments = parser.parse_args()
    with lzma.open(DATA, "rt", encoding="utf-8") as source:
        cities = json.load(source)
    names = [city["name"] for city in cities]
    alternates = [name for city in cities for name in city.get("alternatenames") or []]
    countries = [city["country"] for city in cities]
    populations = [city["population"] for city in cities if city.get("population")]
    name_model, alternate_model = train(names), train(alternates[:400_000])
    rng = random.Random(arguments.seed)
    out = sys.stdout
    out.write("[\n")
    for number in range(1, arguments.count + 1):
        name = rng.choice(names) if rng.random() < 0.1 else generate(name_model, rng)
        count = int(arguments.alternates) + (1 if rng.random() < arguments.alternates % 1 else 0)
        extra = [generate(alternate_model, rng) for _ in range(count)]
        city = {"country": rng.choice(countries), "name": name, "_id": number,
                "coord": {"lon": round(rng.uniform(-180, 180), 5), "lat": round(rng.uniform(-90, 90), 5)}}
        if rng.random() < 0.5:
            city["population"] = rng.choice(populations)
        if extra:
            city["alternatenames"] = extra
        out.write(("," if number > 1 else "") + json.dumps(city, ensure_ascii=False, separators=(",", ":")) + "\n")
    out.write("]\n")


if __name__ == "__main__":
    main()
