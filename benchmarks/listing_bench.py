"""How the per-case steps of a routing run over a predicted listing grow with the room (a benchmark, not
a test).

For rooms of 100, 1,000 and 5,000 skills it predicts claude's listing (so most of a large room is shown
by name only or left out), then says why each of one missed case per skill was missed
(`routing.listed.why_missed`, which the lexical engine and the agent engine call per missed case). It
prints the CPU time per case at each size and its growth between sizes: flat means each case costs the
same whatever the room, so the run stays linear in its cases. Beside it, the same answers found by a walk
over the whole listing per case (what `Listing.state_of` did before it kept an index), for the ratio.

    python benchmarks/listing_bench.py [--sizes 100,1000,5000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench_machine import print_machine_load, reference_loop

from harness.model.listing import Listing, predict, rules
from harness.routing.listed import why_missed

WORDS = ("convert", "report", "files", "deploy", "review", "tables", "images", "schedule", "audit", "draft")


def room(size: int) -> list[tuple[str, str]]:
    """`size` (name, description) pairs of about 200 characters each."""
    return [(f"skill-{n:05d}", " ".join(WORDS[(n + k) % 10] for k in range(30))[:200]) for n in range(size)]


def walked_state(listing: Listing, name: str) -> str | None:
    return next((skill.state for skill in listing.skills if skill.name == name), None)


def per_case(step, listing: Listing, names: list[str], repeat: int) -> float:
    """The median CPU seconds per case of `step(listing, name)` over every name."""
    times = []
    for _ in range(repeat):
        started = time.process_time()
        for name in names:
            step(listing, name)
        times.append((time.process_time() - started) / len(names))
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,5000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    speed = reference_loop()
    rule = rules()["claude"]
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        skills = room(size)
        started = time.process_time()
        listing = predict(rule, skills)
        predicted = time.process_time() - started
        names = [name for name, _ in skills]
        indexed = per_case(why_missed, listing, names, args.repeat)
        walked = per_case(walked_state, listing, names, args.repeat)
        rows.append((size, predicted, indexed, walked))
    print_machine_load(speed)
    heads = ("skills", "predict s", "why_missed us/case", "growth", "walk us/case", "walk/index")
    print(" ".join(f"{head:>{width}}" for head, width in zip(heads, (7, 10, 19, 7, 13, 11), strict=True)))
    previous = None
    for size, predicted, indexed, walked in rows:
        growth = f"{indexed / previous:.2f}x" if previous else "-"
        print(
            f"{size:>7} {predicted:>10.3f} {indexed * 1e6:>19.2f} {growth:>7} {walked * 1e6:>13.1f} "
            f"{walked / indexed:>10.0f}x"
        )
        previous = indexed
    print("growth: the per-case cost against the size before; about 1x: a case costs the same in any room")


if __name__ == "__main__":
    main()
