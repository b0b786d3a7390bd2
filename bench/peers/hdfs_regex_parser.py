#!/usr/bin/env python3
"""The source paper's approach: a plain Python regex parser of the same HDFS fields.

Extracts, per line, what perfplan's parser extracts (audit: time, allowed, ugi, ip, cmd, src, dst;
clienttrace: time, src, dest, bytes, op, cliID, blockid, duration; BLOCK* allocate: block, path)
and prints lines, records, transfer bytes and the elapsed time. Usage: hdfs_regex_parser.py FILE
"""
import re
import sys
import time

AUDIT = re.compile(
    r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) \w+ \S*FSNamesystem\.audit: allowed=(\w+)\t"
    r"ugi=([^\t]*)\tip=/?([^\t]*)\tcmd=([^\t]*)\tsrc=([^\t]*)\tdst=([^\t]*)")
TRACE = re.compile(
    r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) \w+ \S*clienttrace: src: /?([^,]*), dest: /?([^,]*), "
    r"(?:volume: [^,]*, )?bytes: (\d+), op: (\w+), cliID: ([^,]*), (?:offset: \d+, )?srvID: [^,]*, "
    r"blockid: \S*?(blk_-?\d+)\S*, duration(?:\(ns\))?: (\d+)")
ALLOC = re.compile(
    r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) \w+ \S*: BLOCK\* allocate (blk_-?\d+)\S* .* for (\S+)$")


def main(path):
    start = time.perf_counter()
    cpu_start = time.process_time()
    lines = records = transfer_bytes = 0
    with open(path, "r", encoding="utf-8", errors="replace") as f:
        for line in f:
            lines += 1
            m = AUDIT.match(line)
            if m:
                records += 1
                continue
            m = TRACE.match(line)
            if m:
                records += 1
                if m.group(5) in ("HDFS_READ", "HDFS_WRITE"):
                    transfer_bytes += int(m.group(4))
                continue
            m = ALLOC.match(line)
            if m:
                records += 1
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start
    print(f"mode=python seconds={seconds:.3f} cpu_seconds={cpu_seconds:.3f} lines={lines} "
          f"lines_per_second={lines / seconds:.0f} lines_per_cpu_second={lines / cpu_seconds:.0f} "
          f"records={records} transfer_bytes={transfer_bytes}")


if __name__ == "__main__":
    main(sys.argv[1])
