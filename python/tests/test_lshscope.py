"""The Python package against the lshscope command line: same options, same numbers."""

import csv
import io
import os
import pathlib
import subprocess
import tempfile

import numpy as np
import pytest

import lshscope

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _sample_prefix(documents=4000):
    """The first `documents` ads of the embedded sample (one ad per line), as a CSV of its own:
    the whole sample is 296,174 candidate pairs at 20 × 5, which Spark in local mode and the
    comparisons here would spend minutes of CI on; 4,000 ads keep every shape it has (reposts,
    templates, company boilerplate, planted pairs) at a few percent of the pairs."""
    source = ROOT / "sample_data" / "jobs.csv"
    path = pathlib.Path(tempfile.mkdtemp(prefix="lshscope-sample-")) / "jobs4k.csv"
    with open(source, encoding="utf-8", newline="") as f, open(
        path, "w", encoding="utf-8", newline=""
    ) as out:
        for _, line in zip(range(documents + 1), f):
            out.write(line)
    return path


SAMPLE = _sample_prefix()


def cli():
    """The lshscope binary most recently built by `cargo build` or `cargo test` (CI builds it
    before running these tests); LSHSCOPE_BIN overrides."""
    if "LSHSCOPE_BIN" in os.environ:
        return os.environ["LSHSCOPE_BIN"]
    built = [ROOT / "target" / p / "lshscope" for p in ("release", "debug")]
    built = [p for p in built if p.exists()]
    assert built, "build the lshscope binary first (cargo build)"
    return str(max(built, key=lambda p: p.stat().st_mtime))


def sample(n=2000):
    with open(SAMPLE, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))[:n]
    return [r["id"] for r in rows], [r["text"] for r in rows]


def cli_scan(path, *args):
    out = subprocess.run(
        [cli(), "scan", str(path), "-q", *args], check=True, capture_output=True, text=True
    ).stdout
    return [
        (r["id_a"], r["id_b"], float(r["jaccard"]), float(r["estimate"]), int(r["bands_hit"]))
        for r in csv.DictReader(io.StringIO(out))
    ]


def test_scan_equals_the_cli(tmp_path):
    ids, texts = sample()
    path = tmp_path / "docs.csv"
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["id", "text"])
        w.writerows(zip(ids, texts))
    for args, kwargs in [
        (["-b", "20", "-r", "5"], dict(bands=20, rows=5)),
        (["-b", "8", "-r", "4", "-k", "64", "--seed", "7", "-t", "0.3"],
         dict(bands=8, rows=4, num_perm=64, seed=7, threshold=0.3)),
        (["-b", "10", "-r", "3", "--shingle", "word:2"], dict(bands=10, rows=3, shingle="word:2")),
        (["-b", "20", "-r", "2", "--profile", "datatrove", "--shingle", "word:2"],
         dict(bands=20, rows=2, profile="datatrove", shingle="word:2")),
        (["-b", "32", "-r", "2", "--profile", "text-dedup"], dict(bands=32, rows=2, profile="text-dedup")),
        (["-b", "20", "-r", "5", "--family", "one-permutation"],
         dict(bands=20, rows=5, family="one-permutation")),
    ]:
        expected = cli_scan(path, *args)
        assert len(expected) >= 5
        assert lshscope.scan(texts, ids, **kwargs) == expected


def test_scan_as_arrow():
    pa = pytest.importorskip("pyarrow")
    ids, texts = sample(500)
    pairs = lshscope.scan(texts, ids, bands=20, rows=5)
    table = lshscope.scan(texts, ids, bands=20, rows=5, arrow=True)
    assert isinstance(table, pa.Table)
    assert table.column_names == list(lshscope.PAIR_COLUMNS)
    assert table.num_rows == len(pairs)
    assert table.column("jaccard").to_pylist() == [p[2] for p in pairs]


def test_scan_as_arrow_without_pyarrow_fails_before_the_work(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if pyarrow were not installed

    def no_scan(*args, **kwargs):
        raise AssertionError("the scan ran before pyarrow was found missing")

    monkeypatch.setattr(lshscope, "_scan", no_scan)
    with pytest.raises(ImportError, match=r"pip install 'lshscope\[arrow\]'.*arrow=False"):
        lshscope.scan(["one text here", "one text here!"], arrow=True)


def test_signatures_minhash_and_index_agree():
    ids, texts = sample(300)
    sigs = lshscope.signatures(texts, num_perm=64, seed=3)
    assert sigs.dtype == np.uint32 and sigs.shape == (300, 64)
    for i in (0, 17, 299):
        m = lshscope.MinHash(texts[i], num_perm=64, seed=3)
        assert np.array_equal(m.digest(), sigs[i])
    # The estimate is the share of agreeing values, the exact Jaccard that of the sets.
    a, b = (lshscope.MinHash(texts[i], num_perm=64, seed=3) for i in (0, 1))
    assert a.jaccard(b) == np.mean(sigs[0] == sigs[1])
    assert 0.0 <= a.exact_jaccard(b) <= 1.0
    # Incremental updates give the signature of the union.
    whole = lshscope.MinHash("alpha beta gamma delta")
    parts = lshscope.MinHash()
    parts.update("alpha beta gamma delta")
    assert np.array_equal(whole.digest(), parts.digest())
    with pytest.raises(ValueError):
        a.jaccard(lshscope.MinHash(texts[0], num_perm=32))


def test_premade_shingles_hash_like_lshscope_shingles():
    text = "hello world"
    made = lshscope.MinHash(shingle="char:5")
    made.update_shingles([text[i:i + 5] for i in range(len(text) - 4)])
    assert np.array_equal(made.digest(), lshscope.MinHash(text).digest())


def test_index_queries_save_and_load_with_the_cli(tmp_path):
    ids, texts = sample(1000)
    index = lshscope.LSHIndex(bands=16, rows=4, num_perm=64)
    index.insert_many(ids[:500], texts[:500])
    for key, text in zip(ids[500:], texts[500:]):
        index.insert(key, text)
    assert len(index) == 1000
    path = tmp_path / "docs.lshidx"
    index.save(str(path))
    loaded = lshscope.LSHIndex.load(str(path))
    probe = texts[42]
    assert loaded.query(probe) == index.query(probe)
    assert index.query(probe)[0][0] == ids[42]
    # The command line reads the same file and answers the same.
    out = subprocess.run(
        [cli(), "index", "query", str(path), probe], check=True, capture_output=True, text=True
    ).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["id"], float(r["jaccard"]), float(r["estimate"]), int(r["bands_hit"])) for r in rows] \
        == index.query(probe)


def test_a_sketch_family_is_chosen_everywhere_and_recorded(tmp_path):
    ids, texts = sample(300)
    classic = lshscope.signatures(texts, num_perm=64, seed=3)
    for family in ("one-permutation", "c-minhash"):
        sigs = lshscope.signatures(texts, num_perm=64, seed=3, family=family)
        assert not np.array_equal(sigs, classic), family
        m = lshscope.MinHash(texts[5], num_perm=64, seed=3, family=family)
        assert m.family == family
        assert np.array_equal(m.digest(), sigs[5])
        # Signatures of two families are not comparable.
        with pytest.raises(ValueError, match="family"):
            m.jaccard(lshscope.MinHash(texts[5], num_perm=64, seed=3))
    assert lshscope.MinHash("x").family == "classic"
    with pytest.raises(ValueError, match="one-permutation"):
        lshscope.signatures(texts, family="oph")
    # An index records its family; the command line reads it and queries in that family.
    index = lshscope.LSHIndex(bands=16, rows=4, num_perm=64, family="c-minhash")
    index.insert_many(ids, texts)
    path = tmp_path / "cm.lshidx"
    index.save(str(path))
    assert lshscope.LSHIndex.load(str(path)).family == "c-minhash"
    assert lshscope.LSHIndex.load(str(path), family="c-minhash").query(texts[7]) == index.query(
        texts[7]
    )
    with pytest.raises(ValueError, match="built with the c-minhash sketch family, not classic"):
        lshscope.LSHIndex.load(str(path), family="classic")
    info = subprocess.run(
        [cli(), "index", "info", str(path), "--json"], check=True, capture_output=True, text=True
    ).stdout
    assert '"family": "c-minhash"' in info
    out = subprocess.run(
        [cli(), "index", "query", str(path), texts[7]], check=True, capture_output=True, text=True
    ).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["id"], float(r["jaccard"]), float(r["estimate"]), int(r["bands_hit"])) for r in rows] \
        == index.query(texts[7])


def test_keys_already_indexed_are_refused_or_skipped(tmp_path):
    ids, texts = sample(200)
    index = lshscope.LSHIndex(bands=16, rows=4, num_perm=64)
    assert index.insert_many(ids[:100], texts[:100]) == 100
    # A retried batch would index every document twice, and queries would return each twice.
    with pytest.raises(ValueError, match=r"50 of the 150 keys are already in the index"):
        index.insert_many(ids[50:200], texts[50:200])
    assert len(index) == 100, "nothing was added"
    with pytest.raises(ValueError, match="already in the index"):
        index.insert(ids[3], "another text under a key in use")
    with pytest.raises(ValueError, match="given twice"):
        index.insert_many(["new-1", "new-1"], ["a", "b"])
    assert index.insert_many(ids[50:200], texts[50:200], skip_existing=True) == 100
    assert len(index) == 200
    hits = [key for key, *_ in index.query(texts[120])]
    assert len(hits) == len(set(hits)), hits
    # The command line refuses the same batch against the saved index.
    path = tmp_path / "docs.lshidx"
    index.save(str(path))
    batch = tmp_path / "batch.csv"
    with open(batch, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "text"])
        w.writerow([ids[7], texts[7]])
    refused = subprocess.run([cli(), "index", "add", str(path), str(batch)], capture_output=True,
                             text=True)
    assert refused.returncode == 2 and "--skip-existing" in refused.stderr, refused.stderr


def test_a_damaged_index_file_is_refused(tmp_path):
    path = tmp_path / "x.lshidx"
    index = lshscope.LSHIndex()
    index.insert("a", "some text")
    index.save(str(path))
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="checksum"):
        lshscope.LSHIndex.load(str(path))
    with pytest.raises(OSError):
        lshscope.LSHIndex.load(str(tmp_path / "missing.lshidx"))


def test_documented_examples_run():
    import doctest

    result = doctest.testmod(lshscope)
    assert result.attempted > 0 and result.failed == 0


def test_a_profile_changes_the_shingles_and_bad_ones_are_refused():
    text = "Don't stop: 12 apples, 7 pears!"
    assert len(lshscope.MinHash(text, profile="datatrove", shingle="word:1")) != len(lshscope.MinHash(text))
    with pytest.raises(ValueError, match="unknown profile"):
        lshscope.MinHash(text, profile="nope")
    with pytest.raises(ValueError):
        lshscope.MinHash(text, profile="nemo", shingle="word:3")


def test_a_bucket_cap_below_a_pair_is_refused():
    with pytest.raises(ValueError, match="would keep no pair"):
        lshscope.scan(["the same words here", "the same words here"], max_bucket=1)
    assert len(lshscope.scan(["the same words here", "the same words here"], max_bucket=2)) == 1


def test_any_iterable_of_texts_is_taken_and_a_bare_str_is_refused():
    texts = ["one text here", "one text here!", "another"]
    # A generator as well as a list, in every function that takes several texts.
    assert np.array_equal(lshscope.signatures(t for t in texts), lshscope.signatures(texts))
    assert lshscope.scan(t for t in texts) == lshscope.scan(texts)
    assert lshscope.dedup((t for t in texts), threshold=0.5) == lshscope.dedup(texts, threshold=0.5)
    index = lshscope.LSHIndex(bands=16, rows=8)
    assert index.insert_many((k for k in ["a", "b"]), (t for t in texts[:2])) == 2
    m = lshscope.MinHash()
    m.update_shingles(s for s in ["alpha", "beta"])
    assert len(m) == 2
    # One text where several are expected would pass each character for a document.
    for call in (
        lambda: lshscope.signatures("hello hello"),
        lambda: lshscope.scan("hello hello"),
        lambda: lshscope.scan(b"hello hello"),
        lambda: lshscope.dedup("hello hello", threshold=0.5),
        lambda: index.insert_many(["c"], "hello hello"),
    ):
        with pytest.raises(TypeError, match=r"pass a list of texts, e\.g\. \[text\]"):
            call()
    with pytest.raises(TypeError, match=r"pass a list of keys, e\.g\. \[key\]"):
        index.insert_many("c", ["hello hello"])
    with pytest.raises(TypeError, match=r"pass a list of shingles, e\.g\. \[shingle\]"):
        m.update_shingles("gamma")
    with pytest.raises(TypeError, match=r"texts\[1\] is of type int, not str"):
        lshscope.signatures(["a text", 7])
    assert len(index) == 2, "nothing was added"


def test_a_query_while_another_thread_changes_the_index_says_so():
    import threading

    ids, texts = sample(4000)
    seen = []
    for attempt in range(5):
        index = lshscope.LSHIndex(bands=16, rows=4, num_perm=64)
        index.insert("probe", texts[0])
        writer = threading.Thread(target=index.insert_many, args=(ids, texts))
        writer.start()
        while writer.is_alive():
            try:
                index.query(texts[0])
            except RuntimeError as e:
                seen.append(str(e))
        writer.join()
        if seen:
            break
    if not seen:
        # A machine fast enough to finish every insert_many before a query lands cannot show
        # the message; that is not a failure of it.
        pytest.skip("no query ran while insert_many was changing the index")
    assert all("being changed by another thread (insert/insert_many)" in e and "lock" in e
               for e in seen), seen[:1]
    # Once the change is done, queries answer (several threads may query at once).
    assert len(index) == 4001 and index.query(texts[0])[0][0] in ("probe", ids[0])


def test_ctrl_c_interrupts_a_long_call_and_the_next_call_works():
    """Ctrl-C (simulated by _thread.interrupt_main, as the terminal's SIGINT would set it)
    during a long signatures/scan/dedup stops it with KeyboardInterrupt, not at its end and
    not as a panic in the next call; the call after it answers."""
    import _thread
    import threading
    import time

    _, texts = sample(20000)
    # Every text ten times over (with its copy number, so no two are equal): work of a
    # minute and more in the dev build the tests run on (seconds in a release build), while
    # the interrupt comes after 0.2 s.
    many = [f"{t} {k}" for k in range(10) for t in texts]
    for call in (lambda: lshscope.signatures(many, num_perm=256),
                 lambda: lshscope.scan(many, threshold=0.0),
                 lambda: lshscope.dedup(many, threshold=0.5)):
        start = time.monotonic()
        timer = threading.Timer(0.2, _thread.interrupt_main)
        timer.start()
        try:
            with pytest.raises(KeyboardInterrupt):
                call()
        finally:
            timer.cancel()
        # Stopped soon after the interrupt, not at the end of the work (a call that ran to its
        # end would raise it too, at its next line of Python).
        assert time.monotonic() - start < 3.0
        assert lshscope.signatures(["a b c d e f"], num_perm=8).shape == (1, 8)


def test_a_threshold_picks_datasketchs_banding():
    """LSHIndex(threshold=t) takes the banding datasketch's MinHashLSH picks for t (its
    _optimal_param, weights 0.5/0.5 by default), which `lshscope tune` prints as the datasketch
    row; bands and rows beside a threshold, or weights that do not sum to 1, are refused."""
    for t, num_perm, weights in ((0.8, 128, (0.5, 0.5)), (0.5, 128, (0.5, 0.5)),
                                 (0.9, 256, (0.3, 0.7))):
        index = lshscope.LSHIndex(threshold=t, num_perm=num_perm, weights=weights)
        out = subprocess.run(
            [cli(), "tune", "-t", str(t), "-k", str(num_perm), "--fp-weight", str(weights[0]),
             "--fn-weight", str(weights[1])],
            check=True, capture_output=True, text=True).stdout
        row = next(line for line in out.splitlines() if line.startswith("datasketch"))
        assert (index.bands, index.rows) == tuple(int(x) for x in row.split()[1:3]), row
    assert (lshscope.LSHIndex(threshold=0.8).bands, lshscope.LSHIndex(threshold=0.8).rows) == (9, 13)
    assert (lshscope.LSHIndex().bands, lshscope.LSHIndex().rows) == (20, 5)
    with pytest.raises(ValueError, match="either threshold= .* or\\s+bands= and rows="):
        lshscope.LSHIndex(bands=9, threshold=0.8)
    with pytest.raises(ValueError, match="sum to 1"):
        lshscope.LSHIndex(threshold=0.8, weights=(0.5, 0.6))


def test_shingles_added_one_at_a_time_give_the_signature_of_them_all():
    """A loop of update_shingles([word]) (and update(text) calls) ends at the signature and
    set of all of them at once, in every family: the classic and C-MinHash rows fold each
    addition in, one-permutation sketches the union again."""
    _, texts = sample(3)
    words = " ".join(texts).split()
    assert len(set(words)) > 100
    for family in ("classic", "c-minhash", "one-permutation"):
        one_by_one = lshscope.MinHash(family=family)
        for w in words:
            one_by_one.update_shingles([w])
        at_once = lshscope.MinHash(family=family)
        at_once.update_shingles(words)
        assert (one_by_one.digest() == at_once.digest()).all(), family
        assert one_by_one.exact_jaccard(at_once) == 1.0
        assert len(one_by_one) == len(set(words))
        # Texts added in parts: the union of their shingles, as the whole text's (char
        # 5-shingles of the parts miss only the windows across the cut).
        parts = lshscope.MinHash(family=family)
        for t in texts:
            parts.update(t)
        whole = lshscope.MinHash(family=family)
        for t in reversed(texts):
            whole.update(t)
        assert (parts.digest() == whole.digest()).all(), family
