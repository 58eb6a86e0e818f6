"""Writes tests/data/notes.parquet from tests/data/notes.csv with pyarrow, as Hugging Face
datasets and most Python pipelines write Parquet.

The file exercises what lshscope's Parquet reader must handle in real files: the text column
as `large_string` (64-bit offsets), the id as `string`, an integer column (`number`) to use
with --id-column, a seventh note whose text is null, three row groups, and pyarrow's default
snappy compression with dictionary encoding.

Run from the repository root:  python3 tests/data/make_parquet_fixture.py
"""

import csv
import pathlib

import pyarrow as pa
import pyarrow.parquet as pq

here = pathlib.Path(__file__).parent
with open(here / "notes.csv", newline="", encoding="utf-8") as f:
    rows = list(csv.DictReader(f))

ids = [r["id"] for r in rows] + ["n7"]
titles = [r["title"] for r in rows] + ["blank"]
texts = [r["text"] for r in rows] + [None]
numbers = [101 + i for i in range(len(ids))]

table = pa.table(
    {
        "id": pa.array(ids, type=pa.string()),
        "title": pa.array(titles, type=pa.string()),
        "number": pa.array(numbers, type=pa.int64()),
        "text": pa.array(texts, type=pa.large_string()),
    }
)
pq.write_table(table, here / "notes.parquet", row_group_size=3, compression="snappy")
