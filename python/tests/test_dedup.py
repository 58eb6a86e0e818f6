"""``lshscope.dedup`` against ``lshscope dedup``: the same clusters, value for value, for both
clustering methods and every keep rule, on a template corpus with edit chains."""

import csv
import io
import os
import pathlib
import random
import subprocess
import tempfile

import pytest

import lshscope

ROOT = pathlib.Path(__file__).resolve().parents[2]


def cli():
    """The lshscope binary most recently built (LSHSCOPE_BIN overrides), as test_lshscope.py
    finds it."""
    if "LSHSCOPE_BIN" in os.environ:
        return os.environ["LSHSCOPE_BIN"]
    built = [ROOT / "target" / p / "lshscope" for p in ("release", "debug")]
    built = [p for p in built if p.exists()]
    assert built, "build the lshscope binary first (cargo build)"
    return str(max(built, key=lambda p: p.stat().st_mtime))


def _chained_corpus():
    """``gen --templates`` (power-law families, verbatim copies) with edit chains appended
    (each text replaces three more of forty words), and a score per row."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="lshscope-dedup-"))
    generated = folder / "templates.csv"
    subprocess.run(
        [cli(), "gen", "--templates", "-n", "1500", "--max-family", "150", "--seed", "4",
         "-o", str(generated), "-q"],
        check=True,
    )
    with open(generated, encoding="utf-8", newline="") as f:
        rows = [(r["id"], r["text"]) for r in csv.DictReader(f)]
    rng = random.Random(7)
    syllables = ["ka", "lo", "mi", "ner", "sta", "ru", "vel", "tor", "que", "dal"]

    def word():
        return "".join(rng.choice(syllables) for _ in range(3))

    for chain in range(8):
        words = [word() for _ in range(40)]
        for step in range(15):
            rows.append((f"chain{chain}-{step}", " ".join(words)))
            for _ in range(3):
                words[rng.randrange(len(words))] = word()
    # Scores with ties, so that input order breaks some.
    scores = [rng.randrange(5) / 4 for _ in rows]
    path = folder / "chained.csv"
    with open(path, "w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(["id", "text", "score"])
        for (doc, text), score in zip(rows, scores):
            out.writerow([doc, text, score])
    return path, [r[0] for r in rows], [r[1] for r in rows], scores


CORPUS, IDS, TEXTS, SCORES = _chained_corpus()


def cli_dedup(*args):
    out = subprocess.run(
        [cli(), "dedup", str(CORPUS), "-q", *args], check=True, capture_output=True, text=True
    ).stdout
    return [
        (r["id"], r["cluster"], int(r["size"]), r["keep"] == "true", float(r["jaccard"]))
        for r in csv.DictReader(io.StringIO(out))
    ]


@pytest.mark.parametrize("clustering", ["center", "components"])
@pytest.mark.parametrize("keep", ["first", "longest", "scores"])
def test_dedup_equals_the_command_line(clustering, keep):
    args = ["-b", "20", "-r", "5", "-t", "0.6", "--clustering", clustering]
    if keep == "scores":
        args += ["--keep-by", "score"]
        rule = SCORES
    else:
        args += ["--keep", keep]
        rule = keep
    expected = cli_dedup(*args)
    got = lshscope.dedup(
        TEXTS, IDS, threshold=0.6, bands=20, rows=5, clustering=clustering, keep=rule
    )
    assert len(expected) > 100
    assert got == expected


def test_center_removes_only_near_copies_of_what_it_keeps():
    center = lshscope.dedup(TEXTS, IDS, threshold=0.6, bands=20, rows=5)
    components = lshscope.dedup(
        TEXTS, IDS, threshold=0.6, bands=20, rows=5, clustering="components"
    )
    assert all(j >= 0.6 for _, _, _, kept, j in center if not kept)
    below = [row for row in components if not row[3] and row[4] < 0.6]
    assert below, "the edit chains make components remove documents below 0.6"
    removed = lambda rows: sum(1 for row in rows if not row[3])  # noqa: E731
    assert removed(center) <= removed(components)


def test_bad_arguments_are_value_errors():
    with pytest.raises(ValueError, match="components only"):
        lshscope.dedup(TEXTS, threshold=0.5, unverified=True)
    with pytest.raises(ValueError, match="clustering must be"):
        lshscope.dedup(TEXTS, threshold=0.5, clustering="greedy")
    with pytest.raises(ValueError, match="scores for"):
        lshscope.dedup(TEXTS, threshold=0.5, keep=[1.0, 2.0])
    with pytest.raises(ValueError, match="repeats"):
        lshscope.dedup(["a b c", "a b c"], ["x", "x"], threshold=0.5)
    with pytest.raises(ValueError, match="finite"):
        lshscope.dedup(["a b c", "d e f"], threshold=0.5, keep=[1.0, float("nan")])
