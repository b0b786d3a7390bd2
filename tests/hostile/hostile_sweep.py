#!/usr/bin/env python3
"""Hostile-input sweep (issue 17): feeds >= 350 malformed, oversized, binary, non-UTF-8 and
non-file inputs to every input path of the perfplan CLI and fails when any run aborts (killed by
a signal: SIGABRT from an escaped exception, SIGSEGV, ...) or hangs (no exit within the timeout).
Exit codes 0, 1 and 2 are all acceptable answers to hostile input; what matters is that perfplan
answers. The inputs are generated here, deterministically (fixed seed), under a scratch folder.

Usage: hostile_sweep.py PERFPLAN_BINARY SOURCE_DIR [--list]
Prints one line per failure and a summary "N runs, A aborts, H hangs"; exit 1 on any failure.
"""
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile

# A healthy run takes well under a second even on a loaded machine; override for a baseline run
# against an older binary that still hangs (PERFPLAN_SWEEP_TIMEOUT_SECONDS=5).
TIMEOUT_SECONDS = float(os.environ.get("PERFPLAN_SWEEP_TIMEOUT_SECONDS", "30"))
MIN_RUNS = 350


def contents(src):
    """Named hostile file contents (bytes)."""
    rnd = random.Random(17)
    profile = open(os.path.join(src, "examples/profiles/kmeans.yaml"), "rb").read()
    topology = open(os.path.join(src, "examples/topology.yaml"), "rb").read()
    runs = open(os.path.join(src, "examples/tuning/spark_runs.csv"), "rb").read()
    buckets = open(os.path.join(src, "examples/hindex/stage_tasks.txt"), "rb").read()
    c = {
        "empty": b"",
        "nul": b"\0" * 64,
        "ff": b"\xff",
        "bom-only": b"\xef\xbb\xbf",
        "newlines": b"\n" * 1000,
        "crlf-profile": profile.replace(b"\n", b"\r\n"),
        "random-1k": bytes(rnd.getrandbits(8) for _ in range(1024)),
        "random-64k": bytes(rnd.getrandbits(8) for _ in range(65536)),
        "long-line": b"x" * 300_000 + b"\n",
        "deep-json": b"[" * 100_000,
        "deep-yaml": b"a:\n" + b"".join(b" " * i + b"- \n" for i in range(1, 400)),
        "invalid-utf8-key": b"\xff\xfe: 1\n",
        "invalid-utf8-value": b"application: al\xffice\n",
        "yaml-anchor-bomb": b'a: &a ["x","x","x","x","x","x","x","x","x"]\n'
        + b"".join(b"%c: &%c [*%c,*%c,*%c,*%c,*%c,*%c,*%c,*%c,*%c]\n" % ((98 + i,) * 2 + (97 + i,) * 9)
                   for i in range(8)),
        "json-nan": b'{"schema_version": NaN}',
        "json-huge-number": b'{"schema_version": 1e99999}',
        "csv-header-only": runs.split(b"\n")[0] + b"\n",
        "csv-invalid-utf8": runs.replace(b"time_seconds", b"time\xffseconds", 1),
        "csv-huge-values": runs.split(b"\n")[0] + b"\n" + b",".join([b"1e308"] * 50) + b"\n",
        "csv-ragged": b"a,b,c\n1\n1,2,3,4,5\n",
        "spark-bad-event": b'{"Event":"SparkListenerApplicationStart","App Name":"a\xff","Timestamp":1e300}\n',
        "spark-finish-1e300": b'{"Event":"SparkListenerTaskEnd","Stage ID":0,"Task Info":{"Task ID":1,"Launch Time":1,"Finish Time":1e300}}\n',
        "spark-deep": b'{"Event":' + b"[" * 5000 + b"\n",
        "hdfs-audit-ff": b"2024-01-01 00:00:00,000 INFO FSNamesystem.audit: allowed=true\tugi=al\xffice (auth:SIMPLE)\tip=/10.0.0.1\tcmd=open\tsrc=/f\tdst=null\tperm=null\n",
        "hdfs-broken-record": b"2024-01-01 00:00:00,000 INFO FSNamesystem.audit: allowed=true\tugi=a\n\tip=/1.2.3.4\tcmd=open\n",
        "hdfs-huge-time": b"9999999-99-99 99:99:99,999 INFO x: y\n",
        "records-garbage": b"\t\t\t\n\\\\\\\n" + b"\xff\t" * 100 + b"\n",
        "topology-count-2^31": b"schema_version: 1\nsites:\n  - name: s\n    nodes: [{count: 2147483648}]\n",
        "topology-count-1e8": b"schema_version: 1\nsites:\n  - name: s\n    nodes: [{count: 1e8}]\n",
        "topology-count-2^32+1": b"schema_version: 1\nsites:\n  - name: s\n    nodes: [{count: 4294967297}]\n",
        "topology-duplicate-keys": b"schema_version: 1\nschema_version: 2\nsites: []\n",
        "profile-string-number": profile.replace(b"compute_nodes: ", b"compute_nodes: \"", 1),
        "profile-fraction": profile.replace(b"storage_nodes: ", b"storage_nodes: 0.", 1),
        "gmond-ff": b'<?xml version="1.0"?><GANGLIA_XML><CLUSTER NAME="c\xff"><HOST NAME="h"/></CLUSTER></GANGLIA_XML>',
        "gmond-unclosed": b"<GANGLIA_XML>" + b"<CLUSTER>" * 10000,
        "model-json-garbage": b'{"format":"perfplan-tuning-model","checksum":"x","model":{"kind":"\xff"}}',
    }
    # Truncations and single-byte corruptions of real inputs at fixed, seeded offsets.
    for name, whole in (("profile", profile), ("topology", topology), ("runs", runs),
                        ("buckets", buckets)):
        for k in range(4):
            cut = rnd.randrange(1, max(2, len(whole)))
            c[f"{name}-cut-{k}"] = whole[:cut]
        for k in range(3):
            pos = rnd.randrange(len(whole))
            c[f"{name}-flip-{k}"] = whole[:pos] + bytes([rnd.choice([0, 0xFF, 0x80, 0x22, 0x5B])]) + whole[pos + 1:]
    return c


# Every input path: (name, argv template). {F} is the hostile file, {S} a fresh store, {D} the
# scratch folder. "stdin" templates read the hostile file on standard input.
PATHS = [
    ("predict", ["predict", "--profile", "{F}", "--dataset-bytes", "8e9", "--storage-nodes", "4",
                 "--compute-nodes", "16", "--bandwidth-bytes-per-second", "125e6", "--json"]),
    ("select", ["select", "--profile", "{SRC}/examples/profiles/kmeans.yaml", "--topology", "{F}",
                "--dataset", "sky-survey", "--json"]),
    ("validate", ["validate", "{F}", "--json"]),
    ("fit", ["fit", "--runs", "{F}", "--workload", "w", "--json"]),
    ("plan-store", ["plan", "--store", "{F}", "--app", "synthetic", "--json"]),
    ("capacity-store", ["capacity", "--store", "{F}", "--profile",
                        "{SRC}/examples/profiles/kmeans.yaml", "--nodes", "4,16", "--json"]),
    ("capacity-runs", ["capacity", "--trace", "{SRC}/examples/swim/fb2009_first50.tsv", "--runs",
                       "{F}", "--workload", "w", "--nodes", "4,16", "--json"]),
    ("report-prices", ["report", "--out", "{D}/prices-report.html", "--profiles",
                       "{SRC}/examples/profiles/kmeans.yaml", "--topology",
                       "{SRC}/examples/topology.yaml", "--prices", "{F}", "--json"]),
    ("evaluate", ["evaluate", "--runs", "{F}", "--workload", "w", "--train", "compute_nodes<=8",
                  "--json"]),
    ("tune-cv", ["tune", "cv", "--data", "{F}", "--target", "time_seconds", "--json"]),
    ("tune-sensitivity", ["tune", "sensitivity", "--model", "{F}", "--json"]),
    ("hindex", ["hindex", "{F}", "--json"]),
    ("hindex-stdin", ["hindex", "-", "--json"], "stdin"),
    ("ingest-spark", ["ingest", "spark", "{F}", "--store", "{S}", "--json"]),
    ("ingest-hdfs", ["ingest", "hdfs", "--store", "{S}", "--node", "nn1={F}", "--json"]),
    ("hdfs-map", ["hdfs", "map"], "stdin"),
    ("hdfs-reduce", ["hdfs", "reduce"], "stdin"),
    ("spark-map", ["spark", "map", "{F}", "--scratch", "{D}"]),
    ("spark-map-stdin", ["spark", "map", "-", "--scratch", "{D}"], "stdin"),
    ("spark-reduce", ["spark", "reduce"], "stdin"),
    ("spark-reduce-store", ["spark", "reduce", "--store", "{S}", "--json"], "stdin"),
    ("collect-ganglia", ["collect", "ganglia", "--source", "{F}", "--store", "{S}", "--json"]),
]


def run(argv, stdin_path, timeout):
    # os.open, not open(): a directory as standard input (`< DIR`) is one of the cases.
    stdin = os.open(stdin_path, os.O_RDONLY) if stdin_path else subprocess.DEVNULL
    try:
        p = subprocess.run(argv, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
        return p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        return "hang", b""
    finally:
        if stdin_path:
            os.close(stdin)


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    binary, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    scratch = tempfile.mkdtemp(prefix="perfplan-hostile-")
    try:
        files = {}
        for name, data in contents(src).items():
            path = os.path.join(scratch, name)
            with open(path, "wb") as f:
                f.write(data)
            files[name] = path
        # Things that are not files at all.
        os.mkdir(os.path.join(scratch, "a-directory"))
        files["directory"] = os.path.join(scratch, "a-directory")
        files["missing"] = os.path.join(scratch, "does-not-exist")
        files["dev-zero"] = "/dev/zero"
        files["dev-null"] = "/dev/null"
        fifo = os.path.join(scratch, "fifo-without-writer")
        os.mkfifo(fifo)
        files["fifo"] = fifo
        bad_name = os.path.join(scratch.encode(), b"name-\xff.log")
        with open(bad_name, "wb") as f:
            f.write(b"2024-01-01 00:00:00,000 INFO x: y\n")
        files["file-name-ff"] = bad_name

        runs = aborts = hangs = 0
        failures = []
        for k, spec in enumerate(PATHS):
            pname, template = spec[0], spec[1]
            via_stdin = len(spec) > 2
            for fname, fpath in files.items():
                if via_stdin and fname in ("missing", "fifo", "dev-zero"):
                    continue  # the shell, not perfplan, opens these for `< FILE`
                store = os.path.join(scratch, f"store-{k}.db")
                argv = [binary]
                for a in template:
                    if a == "{F}" and isinstance(fpath, bytes):
                        argv.append(fpath)
                    elif isinstance(fpath, bytes) and "{F}" in a:
                        argv.append(a.replace("{F}", "").encode() + fpath)
                    else:
                        argv.append(a.replace("{F}", str(fpath)).replace("{S}", store)
                                     .replace("{SRC}", src).replace("{D}", scratch))
                code, err = run(argv, fpath if via_stdin else None, TIMEOUT_SECONDS)
                runs += 1
                if code == "hang":
                    hangs += 1
                    failures.append(f"HANG  {pname} {fname}")
                    print(failures[-1], flush=True)
                elif code < 0 or code > 2 or b"internal error" in err:
                    aborts += 1
                    sig = signal.Signals(-code).name if code < 0 else f"exit {code}"
                    failures.append(f"ABORT {pname} {fname}: {sig}: {err[-300:]!r}")
                    print(failures[-1], flush=True)
            # Stored hostile data must not break later readers of the same store.
            store = os.path.join(scratch, f"store-{k}.db")
            if os.path.exists(store):
                for later in (["apps", "--store", store, "--json"],
                              ["workload", "--store", store, "--json"],
                              ["export", "--what", "workload", "--store", store, "--format", "json"]):
                    code, err = run([binary] + later, None, TIMEOUT_SECONDS)
                    runs += 1
                    if code == "hang" or code < 0 or code > 2 or b"internal error" in err:
                        aborts += 1
                        failures.append(f"ABORT {later[0]} after {pname}: {code}: {err[-300:]!r}")
                        print(failures[-1], flush=True)
        print(f"{runs} runs over {len(PATHS)} input paths, {aborts} aborts, {hangs} hangs")
        if runs < MIN_RUNS:
            print(f"too few runs: {runs} < {MIN_RUNS}")
            return 1
        return 1 if failures else 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
