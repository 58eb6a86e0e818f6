"""Arrow buffers in and out of the engine's batch kernels (no Python object per row)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc


def _buffers(column):
    """(offsets as int64, bytes as uint8) of an Arrow string or binary column, zero-copy
    where Arrow allows; nulls read as empty values (a null text is an empty document, as in
    the CLI's readers)."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    if column.null_count:
        empty = "" if pa.types.is_string(column.type) or pa.types.is_large_string(column.type) else b""
        column = pc.fill_null(column, empty)
    if pa.types.is_string(column.type) or pa.types.is_binary(column.type):
        width = np.int32
    elif pa.types.is_large_string(column.type) or pa.types.is_large_binary(column.type):
        width = np.int64
    else:
        raise TypeError(f"expected a string or binary column, got {column.type}")
    _, offsets, data = column.buffers()
    offsets = np.frombuffer(offsets, dtype=width)[column.offset : column.offset + len(column) + 1]
    data = np.frombuffer(data, dtype=np.uint8) if data is not None else np.zeros(0, np.uint8)
    return offsets.astype(np.int64, copy=False), data


def _binary(offsets, data):
    """An Arrow binary column from (int64 offsets, uint8 bytes)."""
    n = len(offsets) - 1
    if len(data) >= 2**31:
        return pa.Array.from_buffers(
            pa.large_binary(), n, [None, pa.py_buffer(offsets), pa.py_buffer(data)]
        ).cast(pa.binary())
    return pa.Array.from_buffers(
        pa.binary(), n, [None, pa.py_buffer(offsets.astype(np.int32)), pa.py_buffer(data)]
    )


# Rows per Arrow batch handed back to Spark from a kernel's whole-partition result.
_BATCH_ROWS = 1 << 16


def _batches(columns, names):
    """``columns`` (equal-length Arrow arrays) as record batches of at most _BATCH_ROWS."""
    total = len(columns[0]) if columns else 0
    for start in range(0, total, _BATCH_ROWS):
        yield pa.RecordBatch.from_arrays(
            [c.slice(start, _BATCH_ROWS) for c in columns], names=names
        )


def _whole_partition(batches):
    """A partition's batches as one table (a kernel that groups needs all of it), or None
    when it is empty."""
    batches = [b for b in batches if b.num_rows]
    return pa.Table.from_batches(batches).combine_chunks() if batches else None


def _mask_columns(prefix, bands):
    """Names of the long columns of a mask with one bit per band."""
    return [f"{prefix}{w}" for w in range(-(-bands // 64))]


def _mask_array(table, columns):
    """The mask columns of ``table`` as one flat int64 array, a row's words together."""
    return np.ascontiguousarray(
        np.column_stack([table.column(c).to_numpy() for c in columns])
    ).ravel()
