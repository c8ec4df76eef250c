"""Print a markdown profile of a CSV file: one row per column."""

import csv
import statistics
import sys
from collections import Counter

MISSING = {"", "na", "n/a", "null"}


def profile(path):
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    columns = list(rows[0].keys()) if rows else []
    print(f"# Summary of {path}\n\n{len(rows)} rows, {len(columns)} columns.\n")
    print("| column | type | missing | min | max | mean | top values |")
    print("|---|---|---|---|---|---|---|")
    for name in columns:
        values = [row[name] for row in rows if (row[name] or "").strip().lower() not in MISSING]
        missing = len(rows) - len(values)
        try:
            numbers = [float(v) for v in values]
        except ValueError:
            numbers = None
        if numbers:
            low, high, mean = min(numbers), max(numbers), f"{statistics.fmean(numbers):.2f}"
            kind, top = "numeric", ""
        else:
            low = high = mean = ""
            kind = "text"
            top = ", ".join(f"{v} ({n})" for v, n in Counter(values).most_common(3))
        print(f"| {name} | {kind} | {missing} | {low} | {high} | {mean} | {top} |")


if __name__ == "__main__":
    for argument in sys.argv[1:]:
        profile(argument)
