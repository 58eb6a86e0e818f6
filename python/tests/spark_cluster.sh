#!/usr/bin/env bash
# The cluster recipe of docs/spark.md, as CI runs it: a standalone Spark master and one worker
# (WORKERS=N: N workers, each with its own instance number, work directory and port) on
# 127.0.0.1 (started with pip's pyspark, which has sbin/spark-daemon.sh but no
# start-master.sh), the executors' Python packed with venv-pack and shipped with --archives,
# and the job sent with spark-submit on Spark's default memory (1 GB driver and executor).
# The daemons are stopped when the script exits, whatever the job did.
#
# Usage: spark_cluster.sh WORK_DIR WHEEL PORT INPUT_URI PAIRS_URI CLUSTERS_URI [job options]
#   run by the Python that has pyspark and lshscope installed (the driver's Python).
#   WORKERS (default 1) workers of WORKER_CORES (default 2) cores each.
set -euo pipefail
work=$1 wheel=$2 port=$3 input=$4 pairs=$5 clusters=$6
shift 6
python=${PYTHON:-python}
workers=${WORKERS:-1} worker_cores=${WORKER_CORES:-2}
mkdir -p "$work"
say() { echo "spark_cluster.sh: [${SECONDS} s] $*" >&2; }

# 1. A standalone cluster from the pyspark package: one master, and workers of two cores. Each
# daemon of a class on one machine needs its own instance number (its pid and log file are
# named after it), its own work directory (the applications' files: the unpacked environment,
# executor logs) and ports of its own (0: any free one, as for the web UIs).
SPARK_HOME=$("$python" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')
export SPARK_HOME SPARK_PID_DIR="$work/pids" SPARK_LOG_DIR="$work/logs" SPARK_LOCAL_IP=127.0.0.1
# Each application unpacks the shipped environment (~110 MB) into every worker's directory;
# the worker removes the directories of applications that have ended (checked every 30 min by
# default; here every minute, and whatever their age).
export SPARK_WORKER_OPTS="-Dspark.worker.cleanup.enabled=true -Dspark.worker.cleanup.interval=60 -Dspark.worker.cleanup.appDataTtl=60"
daemon="$SPARK_HOME/sbin/spark-daemon.sh"
master_class=org.apache.spark.deploy.master.Master
worker_class=org.apache.spark.deploy.worker.Worker
stop_cluster() {
    say "stopping the workers and the master"
    for i in $(seq "$workers"); do
        "$daemon" stop "$worker_class" "$i" || true
    done
    "$daemon" stop "$master_class" 1 || true
}
trap stop_cluster EXIT
master="spark://127.0.0.1:$port"
say "starting a master at $master and $workers worker(s)"
"$daemon" start "$master_class" 1 --host 127.0.0.1 --port "$port" --webui-port 0
for i in $(seq "$workers"); do
    "$daemon" start "$worker_class" "$i" --cores "$worker_cores" --memory 2g --port 0 \
        --webui-port 0 --work-dir "$work/worker-$i" "$master"
done
# spark-submit would wait for a worker anyway; waiting here makes a broken start fail fast.
registered() { grep -ls "Successfully registered with master" "$SPARK_LOG_DIR"/*Worker*.out | wc -l; }
for _ in $(seq 120); do
    [ "$(registered)" -ge "$workers" ] && break
    sleep 1
done
[ "$(registered)" -ge "$workers" ] || {
    echo "error: $(registered) of $workers workers registered with $master; the logs:" >&2
    cat "$SPARK_LOG_DIR"/*.out >&2
    exit 1
}

# 2. The executors' Python: numpy, pyarrow, pandas and the lshscope wheel in a venv, packed.
# An archive already in WORK_DIR (from an earlier run with the same wheel) is used as it is.
if [ ! -f "$work/executor-env.tar.gz" ]; then
    say "packing the executors' Python with $(basename "$wheel")"
    "$python" -m venv "$work/executor-env"
    "$work/executor-env/bin/pip" install -q numpy pyarrow "pandas>=2.2,<3" venv-pack "$wheel"
    "$work/executor-env/bin/venv-pack" -q -p "$work/executor-env" -o "$work/executor-env.tar.gz"
    # The archive is all Spark needs; the unpacked venv (~370 MB) only takes disk from here on.
    rm -rf "$work/executor-env"
fi

# 3. The job, with Spark's default driver and executor memory.
job=$("$python" -c 'import lshscope.spark.__main__ as job; print(job.__file__)')
say "submitting $job"
"$SPARK_HOME/bin/spark-submit" \
    --master "$master" \
    --archives "$work/executor-env.tar.gz#environment" \
    --conf spark.pyspark.python=./environment/bin/python \
    --conf spark.pyspark.driver.python="$(command -v "$python")" \
    "$job" "$input" "$pairs" --clusters "$clusters" "$@"
say "the job ended"
