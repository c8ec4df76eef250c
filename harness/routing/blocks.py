"""Scores of many texts against a room at once, as arrays: the lexical engine's hot loop, compiled.

The arithmetic is the pure definition's, in its order: each product of a query weight and a skill weight
is rounded on its own (numpy multiplies, then `bincount` adds; neither fuses the two), and a skill's
products are added in the query's word order starting from 0.0. So a score is the same double as the
one-posting-at-a-time sum, on every platform; tests check it against that sum.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from harness.routing.scoring import SHARED_SHOWN, Match, Vector

# About 1 MB of float64 scores per block, whatever the room's size: a block and the few arrays made
# from it stay within a core's cache (measured: 4 MB blocks graded 10,000 cases x 1,000 skills in
# 1.4-1.6 times the CPU, more so with two processes grading at once).
CELLS_PER_BLOCK = 125_000


def block_rows(skills: int) -> int:
    return max(1, CELLS_PER_BLOCK // max(1, skills))


class Postings:
    """Each word's skills (columns) and weights, concatenated word after word, skills in name order:
    `names` sorted, `vectors` each skill's unit vector."""

    def __init__(self, names: list[str], vectors: Mapping[str, Vector]):
        self.names = names
        self.words: dict[str, int] = {}  # each word's number, in order of first use by name order
        word_ids: list[int] = []
        columns: list[int] = []
        weights: list[float] = []
        for column, name in enumerate(names):
            for stem, weight in vectors[name].weights.items():
                word = self.words.get(stem)
                if word is None:
                    word = self.words[stem] = len(self.words)
                word_ids.append(word)
                columns.append(column)
                weights.append(weight)
        # Grouped word by word; a stable sort keeps each word's skills in name order.
        word_of = np.array(word_ids, dtype=np.int64)
        order = np.argsort(word_of, kind="stable")
        self.stems = list(self.words)
        # Each word's place among the words in string order: the tie-break of the shared words.
        self.stem_order = np.empty(len(self.stems), dtype=np.int64)
        self.stem_order[sorted(range(len(self.stems)), key=self.stems.__getitem__)] = np.arange(
            len(self.stems)
        )
        self.columns = np.array(columns, dtype=np.int64)[order]
        self.weights = np.array(weights, dtype=np.float64)[order]
        self.lengths = np.bincount(word_of, minlength=len(self.stems))
        self.starts = np.cumsum(self.lengths) - self.lengths

    def products(self, queries: list[Vector]) -> Products:
        """Every product of a query weight and a skill weight, in query order, then word order, then skill."""
        rows: list[int] = []
        words: list[int] = []
        query_weights: list[float] = []
        known = self.words.get
        for row, query in enumerate(queries):
            for stem, weight in query.weights.items():
                word = known(stem)
                if word is not None:
                    rows.append(row)
                    words.append(word)
                    query_weights.append(weight)
        word_ids = np.array(words, dtype=np.int64)
        lengths = self.lengths[word_ids]
        ends = np.cumsum(lengths)
        total = int(ends[-1]) if len(ends) else 0
        positions = np.repeat(self.starts[word_ids] - (ends - lengths), lengths) + np.arange(total)
        skills = len(self.names)
        return Products(
            cells=np.repeat(np.array(rows, dtype=np.int64), lengths) * skills + self.columns[positions],
            values=np.repeat(np.array(query_weights, dtype=np.float64), lengths) * self.weights[positions],
            words=np.repeat(word_ids, lengths),
        )


class Products:
    """The terms of every score of a block: its cell (row x skills + column), value and word."""

    def __init__(self, cells: np.ndarray, values: np.ndarray, words: np.ndarray):
        self.cells, self.values, self.words = cells, values, words

    def matrix(self, rows: int, skills: int) -> np.ndarray:
        """Each cell's terms added in order from 0.0 (`bincount` adds its weights one by one)."""
        return np.bincount(self.cells, weights=self.values, minlength=rows * skills).reshape(rows, skills)


class ScoreBlock:
    """Rows of scores for a block of texts, read as ranks the way a case reads them: a tie counts
    against a positive (worst_ranks) and for a negative's false trigger (best_ranks)."""

    def __init__(self, postings: Postings, queries: list[Vector]):
        self.postings, self.queries = postings, queries
        self.products = postings.products(queries)
        self.matrix = self.products.matrix(len(queries), len(postings.names))

    def scores_of(self, columns: list[int], rows: list[int] | None = None) -> list[float]:
        """The score of skill `columns[i]` in row `rows[i]` (row i when `rows` is not given)."""
        return self._own(columns, rows).tolist()

    def worst_ranks(self, columns: list[int], rows: list[int] | None = None) -> list[int]:
        """1 + every other skill scoring as much or more (a tie counts against); unshared ranks last."""
        own = self._own(columns, rows)
        counts = (self._rows(rows) >= own[:, None]).sum(axis=1)
        return np.where(own == 0, len(self.postings.names), counts).tolist()

    def best_ranks(self, columns: list[int], rows: list[int] | None = None) -> list[int]:
        """1 + the skills scoring strictly more: a skill tied for first ranks 1."""
        own = self._own(columns, rows)
        return (1 + (self._rows(rows) > own[:, None]).sum(axis=1)).tolist()

    def _rows(self, rows: list[int] | None) -> np.ndarray:
        return self.matrix if rows is None else self.matrix[rows]

    def _own(self, columns: list[int], rows: list[int] | None) -> np.ndarray:
        return self.matrix[np.arange(len(columns)) if rows is None else rows, columns]

    def tops(self, count: int) -> list[list[Match]]:
        """Each row's `count` best-scoring skills above zero, ties by name, with their shared words."""
        best = self._best(count)
        shared = self._shared(
            [row * self.matrix.shape[1] + column for row, found in enumerate(best) for _, column in found]
        )
        names = self.postings.names
        skills = self.matrix.shape[1]
        return [
            [Match(names[column], -score, shared.get(row * skills + column, ())) for score, column in found]
            for row, found in enumerate(best)
        ]

    def _best(self, count: int) -> list[list[tuple[float, int]]]:
        """Each row's best (-score, column) pairs above zero, best first, ties by column (by name)."""
        skills = self.matrix.shape[1]
        count = min(count, skills)
        found: list[list[tuple[float, int]]] = [[] for _ in self.queries]
        if not count:
            return found
        rows, columns = np.nonzero((self.matrix >= self._floors(count)) & (self.matrix > 0))
        scores = self.matrix[rows, columns].tolist()
        for row, column, score in zip(rows.tolist(), columns.tolist(), scores, strict=True):
            found[row].append((-score, column))
        for pairs in found:
            pairs.sort()
            del pairs[count:]
        return found

    def _floors(self, count: int) -> np.ndarray:
        """Each row's `count`-th largest distinct score (a column): every score of the row's top `count`
        reaches it, ties included. Cheaper than a partition: `count` passes of a row maximum."""
        left = self.matrix.copy()
        floors = left.max(axis=1, keepdims=True)
        for _ in range(count - 1):
            left[left >= floors] = 0.0
            floors = left.max(axis=1, keepdims=True)
        return floors

    def _shared(self, cells: list[int]) -> dict[int, tuple[str, ...]]:
        """For each cell, the words its row's text and its skill both hold, heaviest term first, ties by
        word, as the text wrote them (the order Index.shared gives)."""
        terms = self.products
        chosen = np.isin(terms.cells, np.array(cells, dtype=np.int64))
        where, values, words = terms.cells[chosen], terms.values[chosen], terms.words[chosen]
        order = np.lexsort((self.postings.stem_order[words], -values, where))
        skills = self.matrix.shape[1]
        stems, written = self.postings.stems, [query.words for query in self.queries]
        out: dict[int, list[str]] = {}
        ordered = where[order]
        for cell, row, word in zip(
            ordered.tolist(), (ordered // skills).tolist(), words[order].tolist(), strict=True
        ):
            held = out.get(cell)
            if held is None:
                out[cell] = [written[row][stems[word]]]
            elif len(held) < SHARED_SHOWN:
                held.append(written[row][stems[word]])
        return {cell: tuple(held) for cell, held in out.items()}
