#!/usr/bin/env bash
# The cluster recipe of docs/spark.md, as CI runs it: a standalone Spark master and one worker
# on 127.0.0.1 (started with pip's pyspark, which has sbin/spark-daemon.sh but no
# start-master.sh), the executors' Python packed with venv-pack and shipped with --archives,
# and the job sent with spark-submit on Spark's default memory (1 GB driver and executor).
# The daemons are stopped when the script exits, whatever the job did.
#
# Usage: spark_cluster.sh WORK_DIR WHEEL PORT INPUT_URI PAIRS_URI CLUSTERS_URI [job options]
#   run by the Python that has pyspark and lshscope installed (the driver's Python).
set -euo pipefail
work=$1 wheel=$2 port=$3 input=$4 pairs=$5 clusters=$6
shift 6
python=${PYTHON:-python}
mkdir -p "$work"
say() { echo "spark_cluster.sh: [${SECONDS} s] $*" >&2; }

# 1. A standalone cluster from the pyspark package: one master, one worker with two cores.
SPARK_HOME=$("$python" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')
export SPARK_HOME SPARK_PID_DIR="$work/pids" SPARK_LOG_DIR="$work/logs"
export SPARK_WORKER_DIR="$work/worker" SPARK_LOCAL_IP=127.0.0.1
daemon="$SPARK_HOME/sbin/spark-daemon.sh"
master_class=org.apache.spark.deploy.master.Master
worker_class=org.apache.spark.deploy.worker.Worker
stop_cluster() {
    say "stopping the worker and the master"
    "$daemon" stop "$worker_class" 1 || true
    "$daemon" stop "$master_class" 1 || true
}
trap stop_cluster EXIT
master="spark://127.0.0.1:$port"
say "starting a master at $master and one worker"
"$daemon" start "$master_class" 1 --host 127.0.0.1 --port "$port" --webui-port 0
"$daemon" start "$worker_class" 1 --cores 2 --memory 2g --webui-port 0 "$master"
# spark-submit would wait for a worker anyway; waiting here makes a broken start fail fast.
for _ in $(seq 120); do
    if grep -qs "Successfully registered with master" "$SPARK_LOG_DIR"/*Worker*.out; then
        break
    fi
    sleep 1
done
grep -qs "Successfully registered with master" "$SPARK_LOG_DIR"/*Worker*.out || {
    echo "error: the worker did not register with $master; its log:" >&2
    cat "$SPARK_LOG_DIR"/*.out >&2
    exit 1
}

# 2. The executors' Python: numpy, pyarrow, pandas and the lshscope wheel in a venv, packed.
say "packing the executors' Python with $(basename "$wheel")"
"$python" -m venv "$work/executor-env"
"$work/executor-env/bin/pip" install -q numpy pyarrow "pandas>=2.2,<3" venv-pack "$wheel"
"$work/executor-env/bin/venv-pack" -q -p "$work/executor-env" -o "$work/executor-env.tar.gz"
# The archive is all Spark needs; the unpacked venv (~370 MB) only takes disk from here on.
rm -rf "$work/executor-env"

# 3. The job, with Spark's default driver and executor memory.
job=$("$python" -c 'import lshscope.spark as job; print(job.__file__)')
say "submitting $job"
"$SPARK_HOME/bin/spark-submit" \
    --master "$master" \
    --archives "$work/executor-env.tar.gz#environment" \
    --conf spark.pyspark.python=./environment/bin/python \
    --conf spark.pyspark.driver.python="$(command -v "$python")" \
    "$job" "$input" "$pairs" --clusters "$clusters" "$@"
say "the job ended"
