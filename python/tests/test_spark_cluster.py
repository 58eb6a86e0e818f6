"""lshscope.spark on a real (small) cluster, as docs/spark.md tells a data engineer to run it:
a standalone master and one worker on 127.0.0.1 (separate executor JVMs), the executors'
Python shipped as a venv-pack archive holding the manylinux wheel, the job sent with
spark-submit, file:// URIs and Spark's default memory. Its pairs and clusters equal the CLI's.

Needs the wheel to ship: LSHSCOPE_WHEEL names it (CI builds it with maturin, as the docs do).
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from test_lshscope import cli

WHEEL = os.environ.get("LSHSCOPE_WHEEL")
if not WHEEL:
    if os.environ.get("LSHSCOPE_REQUIRE_SPARK"):
        raise RuntimeError("LSHSCOPE_WHEEL must name the wheel the cluster test ships")
    pytest.skip("LSHSCOPE_WHEEL names no wheel to ship to executors", allow_module_level=True)
pyspark = pytest.importorskip("pyspark")

RECIPE = Path(__file__).with_name("spark_cluster.sh")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop_daemons(work):
    """Stops the recipe's master and worker (nothing when they are already stopped)."""
    home = Path(pyspark.__file__).parent
    env = {**os.environ, "SPARK_HOME": str(home), "SPARK_PID_DIR": str(work / "pids")}
    for daemon, instance in (("org.apache.spark.deploy.worker.Worker", "1"),
                             ("org.apache.spark.deploy.worker.Worker", "2"),
                             ("org.apache.spark.deploy.master.Master", "1")):
        subprocess.run(["bash", str(home / "sbin" / "spark-daemon.sh"), "stop", daemon, instance],
                       env=env, capture_output=True)


def table(path):
    return [tuple(r.values()) for r in pq.read_table(path).to_pylist()]


def test_the_wheel_installs_on_cluster_nodes():
    # A manylinux tag (glibc 2.17 and later), not the build machine's `linux_x86_64`.
    assert "manylinux2014_x86_64" in Path(WHEEL).name, WHEEL


def test_spark_submit_on_a_standalone_cluster_equals_the_cli(tmp_path):
    corpus = tmp_path / "docs.csv"
    subprocess.run(
        [cli(), "gen", "--templates", "-n", "1500", "--seed", "11", "--identical-group", "40",
         "--template-family", "150", "-q", "-o", str(corpus)],
        check=True,
    )
    pairs, clusters = tmp_path / "pairs", tmp_path / "clusters"
    banding = ["-b", "16", "-r", "4", "-t", "0.5"]
    work = tmp_path / "cluster"
    recipe = subprocess.Popen(
        ["bash", str(RECIPE), str(work), WHEEL, str(free_port()), corpus.as_uri(),
         pairs.as_uri(), clusters.as_uri(), *banding],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHON": sys.executable}, start_new_session=True,
    )
    try:
        log, _ = recipe.communicate(timeout=900)
    finally:
        if recipe.poll() is None:
            # Stuck: end the recipe's process group (its trap stops the daemons) ...
            os.killpg(recipe.pid, signal.SIGTERM)
            recipe.wait(60)
        # ... and stop them here too, should the trap not have run.
        stop_daemons(work)
        # The shipped environment, unpacked by the worker, is most of a GB: not for later tests.
        for worker in work.glob("worker-*"):
            shutil.rmtree(worker, ignore_errors=True)
        (work / "executor-env.tar.gz").unlink(missing_ok=True)
    assert recipe.returncode == 0, log[-6000:]
    # The daemons are gone, whatever happened (the recipe's trap stops them).
    assert not list((work / "pids").glob("*.pid")), log[-3000:]
    # The executors ran in their own JVMs with the shipped Python.
    assert "environment" in log and "Granted executor ID" in log

    subprocess.run([cli(), "scan", str(corpus), "-q", *banding, "-o", str(tmp_path / "cli.parquet")],
                   check=True)
    subprocess.run([cli(), "dedup", str(corpus), "-q", *banding,
                    "-o", str(tmp_path / "cli-clusters.parquet")], check=True)
    got = table(pairs)
    assert len(got) > 1000
    assert got == table(tmp_path / "cli.parquet")
    clustered = table(clusters)
    assert max(size for _, _, size, *_ in clustered) >= 40
    assert clustered == table(tmp_path / "cli-clusters.parquet")
    # Sized from the input, not Spark's 200 shuffle partitions: one file of pairs.
    assert len(list(pairs.glob("part-*"))) == 1
    assert "lshscope.spark: read 1,500 documents" in log
