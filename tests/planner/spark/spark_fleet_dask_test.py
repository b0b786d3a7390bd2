#!/usr/bin/env python3
"""Issue 16, item 6: fleet mode on a real distributed engine, on one machine.

A Dask distributed LocalCluster of 2 worker processes (Debian's python3-distributed) runs
`perfplan spark map` over partitions of a folder's event logs and `perfplan spark reduce` over
the records split by key (the shape of a Hadoop Streaming job: map, shuffle by key, reduce); the
reducers' output is loaded with `perfplan spark reduce --store`. The store's application and stage
summaries (every table an application owns but its tasks) must equal those of `perfplan ingest
spark` of the same folder, row for row, and a second load must add nothing. Folders: the real logs
of ../shared/data/01-spark-eventlogs (every codec and layout there) and a small generated folder
(plain, gzip, a rolling folder, a stale incomplete copy).

Usage: spark_fleet_dask_test.py PERFPLAN SOURCE_DIR. Exit 0 pass, 1 fail, 77 skip (python3-distributed
absent, or ../shared/data absent).
"""
import gzip
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import warnings
import zlib

SKIP = 77
TIMEOUT = 300  # seconds for any one perfplan run


def run(args, stdin=None):
    p = subprocess.run(args, input=stdin, capture_output=True, timeout=TIMEOUT)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited {p.returncode}: {p.stderr.decode()[-2000:]}")
    return p.stdout


def map_partition(perfplan, scratch, paths):
    """A map task: the paths on stdin, the records on stdout (as under RDD.pipe)."""
    return run([perfplan, "spark", "map", "-", "--scratch", scratch],
               stdin=("\n".join(paths) + "\n").encode())


def reduce_partition(perfplan, lines):
    """A reduce task: its keys' records, sorted, in; the merged records out."""
    return run([perfplan, "spark", "reduce"], stdin=b"".join(sorted(lines)))


def synthetic_log(app_id, stages, tasks, complete=True, executors=2, t0=1700000000000):
    ev = [{"Event": "SparkListenerLogStart", "Spark Version": "3.4.1"},
          {"Event": "SparkListenerApplicationStart", "App Name": "fleet", "App ID": app_id,
           "Timestamp": t0, "User": "tester"}]
    for e in range(1, executors + 1):
        ev.append({"Event": "SparkListenerExecutorAdded", "Timestamp": t0 + 1,
                   "Executor ID": str(e),
                   "Executor Info": {"Host": f"node{e}", "Total Cores": 2, "Log Urls": {}}})
    infos = [{"Stage ID": s, "Stage Attempt ID": 0, "Stage Name": f"stage {s}",
              "Number of Tasks": tasks, "RDD Info": [], "Parent IDs": [s - 1] if s else [],
              "Details": "", "Accumulables": []} for s in range(stages)]
    ev.append({"Event": "SparkListenerJobStart", "Job ID": 0, "Submission Time": t0 + 10,
               "Stage Infos": infos, "Stage IDs": list(range(stages)), "Properties": {}})
    now, tid = t0 + 20, 0
    for s in range(stages):
        info = dict(infos[s], **{"Submission Time": now})
        ev.append({"Event": "SparkListenerStageSubmitted", "Stage Info": info, "Properties": {}})
        end = now
        for k in range(tasks):
            launch = now + k
            finish = launch + 50 + (k * 37 + s * 11) % 400
            end = max(end, finish)
            ti = {"Task ID": tid, "Index": k, "Attempt": 0, "Partition ID": k,
                  "Launch Time": launch, "Executor ID": str(k % executors + 1),
                  "Host": f"node{k % executors + 1}", "Locality": "PROCESS_LOCAL",
                  "Speculative": False, "Getting Result Time": 0, "Failed": False,
                  "Killed": False, "Accumulables": []}
            ev.append({"Event": "SparkListenerTaskStart", "Stage ID": s, "Stage Attempt ID": 0,
                       "Task Info": dict(ti, **{"Finish Time": 0})})
            ev.append({"Event": "SparkListenerTaskEnd", "Stage ID": s, "Stage Attempt ID": 0,
                       "Task Type": "ResultTask", "Task End Reason": {"Reason": "Success"},
                       "Task Info": dict(ti, **{"Finish Time": finish}),
                       "Task Metrics": {
                           "Executor Deserialize Time": 2, "Executor Run Time": finish - launch - 5,
                           "Executor CPU Time": (finish - launch - 9) * 1000000,
                           "Result Size": 1000 + k, "JVM GC Time": k % 3,
                           "Input Metrics": {"Bytes Read": 4096 * (k + 1), "Records Read": 10},
                           "Shuffle Read Metrics": {"Remote Bytes Read": 100 * s,
                                                    "Local Bytes Read": 10, "Fetch Wait Time": s},
                           "Shuffle Write Metrics": {"Shuffle Bytes Written": 200 * k,
                                                     "Shuffle Write Time": 1000 * k}}})
            tid += 1
        ev.append({"Event": "SparkListenerStageCompleted",
                   "Stage Info": dict(info, **{"Completion Time": end})})
        now = end + 5
    ev.append({"Event": "SparkListenerJobEnd", "Job ID": 0, "Completion Time": now,
               "Job Result": {"Result": "JobSucceeded"}})
    if complete:
        ev.append({"Event": "SparkListenerApplicationEnd", "Timestamp": now + 1})
    return "".join(json.dumps(e) + "\n" for e in ev)


def write_generated(folder):
    os.makedirs(os.path.join(folder, "rolling", "eventlog_v2_app-fleet-4"))
    with open(os.path.join(folder, "app-fleet-1"), "w") as f:
        f.write(synthetic_log("app-fleet-1", 3, 12))
    with open(os.path.join(folder, "app-fleet-1.inprogress"), "w") as f:
        f.write(synthetic_log("app-fleet-1", 2, 12, complete=False))
    with gzip.open(os.path.join(folder, "app-fleet-2.gz"), "wt") as f:
        f.write(synthetic_log("app-fleet-2", 5, 20, executors=3))
    with open(os.path.join(folder, "rolling", "app-fleet-3"), "w") as f:
        f.write(synthetic_log("app-fleet-3", 1, 40, complete=False))
    log = synthetic_log("app-fleet-4", 4, 9).splitlines(keepends=True)
    roll = os.path.join(folder, "rolling", "eventlog_v2_app-fleet-4")
    with open(os.path.join(roll, "events_1_app-fleet-4"), "w") as f:
        f.write("".join(log[: len(log) // 2]))
    with open(os.path.join(roll, "events_2_app-fleet-4"), "w") as f:
        f.write("".join(log[len(log) // 2:]))
    open(os.path.join(roll, "appstatus_app-fleet-4"), "w").close()


def dump(db):
    """Every row of every table an application owns except its tasks, keyed by application."""
    con = sqlite3.connect(db)
    out = {}
    for table in ["spark_attempts", "spark_properties", "spark_resource_profiles",
                  "spark_executors", "spark_jobs", "spark_stages", "spark_sql_executions",
                  "spark_rdds", "spark_misc_processes", "spark_stage_summaries",
                  "spark_stage_executor_summaries", "spark_executor_summaries"]:
        cols = [r[1] for r in con.execute(f"PRAGMA table_info({table})") if r[1] != "attempt_key"]
        sel = ", ".join(f'quote(x."{c}")' for c in cols)
        rows = con.execute(f"SELECT a.app_id, a.attempt_id, {sel} FROM {table} x JOIN "
                           "spark_attempts a ON a.attempt_key = x.attempt_key").fetchall()
        out[table] = sorted(rows)
    tasks = con.execute("SELECT COUNT(*) FROM spark_tasks").fetchone()[0]
    con.close()
    return out, tasks


def check_folder(client, perfplan, folder, work, failures):
    name = os.path.basename(folder.rstrip("/"))
    paths = run([perfplan, "spark", "map", "--list", folder]).decode().split("\n")
    paths = [p for p in paths if p]
    # Four map tasks over the two workers, the logs dealt round-robin (no task sees a whole folder).
    chunks = [paths[i::4] for i in range(4) if paths[i::4]]
    scratch = os.path.join(work, "scratch")
    os.makedirs(scratch, exist_ok=True)
    mapped = client.gather(client.map(map_partition, [perfplan] * len(chunks),
                                      [scratch] * len(chunks), chunks, pure=False))
    lines = [l + b"\n" for out in mapped for l in out.split(b"\n") if l]
    # The shuffle: records to two reducers by a hash of their key.
    parts = [[], []]
    for l in lines:
        parts[zlib.crc32(l.split(b"\t", 1)[0]) % 2].append(l)
    reduced = client.gather(client.map(reduce_partition, [perfplan] * 2, parts, pure=False))
    fleet_db = os.path.join(work, f"{name}-fleet.db")
    full_db = os.path.join(work, f"{name}-full.db")
    run([perfplan, "spark", "reduce", "--store", fleet_db], stdin=b"".join(reduced))
    run([perfplan, "ingest", "spark", folder, "--store", full_db])
    fleet, fleet_tasks = dump(fleet_db)
    full, full_tasks = dump(full_db)
    apps = len(full["spark_attempts"])
    stages = len(full["spark_stages"])
    print(f"{name}: {len(paths)} logs in {len(chunks)} map tasks, {len(lines)} records, "
          f"{apps} application attempts, {stages} stage attempts; tasks stored: "
          f"full {full_tasks}, fleet {fleet_tasks}")
    if apps == 0:
        failures.append(f"{name}: the single-process ingest stored no application")
    for table in full:
        if fleet[table] != full[table]:
            only_full = [r for r in full[table] if r not in fleet[table]][:3]
            only_fleet = [r for r in fleet[table] if r not in full[table]][:3]
            failures.append(f"{name}: {table} differs ({len(full[table])} rows ingested, "
                            f"{len(fleet[table])} reduced); only ingested: {only_full}; "
                            f"only reduced: {only_fleet}")
    if fleet_tasks != 0:
        failures.append(f"{name}: the reduced store holds {fleet_tasks} task rows")
    # A second reduce of the same records adds nothing.
    again = json.loads(run([perfplan, "spark", "reduce", "--store", fleet_db, "--json"],
                           stdin=b"".join(reduced)))
    outcomes = {a["outcome"] for a in again["applications"]}
    if outcomes != {"unchanged"}:
        failures.append(f"{name}: the second reduce did {sorted(outcomes)}, not only 'unchanged'")
    if dump(fleet_db)[0] != fleet:
        failures.append(f"{name}: the second reduce changed the store")
    # Summary-only stores feed scores as the full store does.
    scores = [json.loads(run([perfplan, "scores", "--store", db, "--json"]))
              for db in (full_db, fleet_db)]
    if scores[0] != scores[1]:
        failures.append(f"{name}: scores differ between the ingested and the reduced store")


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    perfplan, source = os.path.abspath(sys.argv[1]), sys.argv[2]
    try:
        from distributed import Client, LocalCluster
    except ImportError as e:
        # Debian's python3-distributed is importable by Debian's interpreter; CMake may have found
        # another one first (pyenv, a venv).
        debian = "/usr/bin/python3"
        if (os.path.exists(debian) and os.path.realpath(sys.executable) != os.path.realpath(debian)
                and not os.environ.get("PERFPLAN_FLEET_REEXEC")):
            os.environ["PERFPLAN_FLEET_REEXEC"] = "1"
            os.execv(debian, [debian] + sys.argv)
        print(f"SKIP: python3-distributed is not installed ({e}); scripts/deps.sh lists it")
        return SKIP
    shared = os.path.normpath(os.path.join(source, "..", "shared", "data", "01-spark-eventlogs"))
    if not os.path.isdir(shared):
        print(f"SKIP: {shared} is absent (the real Spark logs of ../shared/data)")
        return SKIP
    # The reducers' inputs travel with their tasks (a megabyte or two here): say nothing about it.
    warnings.filterwarnings("ignore", message="Large object of size")
    work = tempfile.mkdtemp(prefix="perfplan-fleet-")
    failures = []
    try:
        generated = os.path.join(work, "generated")
        write_generated(generated)
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=None, silence_logs=40) as cluster, \
                Client(cluster) as client:
            if len(client.scheduler_info()["workers"]) != 2:
                failures.append("the LocalCluster did not start 2 workers")
            for folder in (generated, shared):
                check_folder(client, perfplan, folder, work, failures)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for f in failures:
        print("FAIL: " + f)
    if not failures:
        print("PASS: the Dask-reduced stores equal ingest spark of the same folders")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
