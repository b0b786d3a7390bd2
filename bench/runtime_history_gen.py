#!/usr/bin/env python3
"""A runs CSV of N measured runs of one workload, in time order, for the runtime-model scale
benchmark (bench/runtime_scale.sh): three instance types, ten node counts 4..48, truth
T = 60 + 8000/(m * vCPUs) seconds with 10% log-normal noise, fixed seed.

  bench/runtime_history_gen.py N > history.csv
"""
import math
import random
import sys


def main():
    n = int(sys.argv[1])
    rng = random.Random(7)
    types = [("c4.large", 2), ("m4.xlarge", 4), ("r4.2xlarge", 8)]
    nodes = [4, 6, 8, 10, 12, 16, 24, 32, 40, 48]
    print("workload,instance_type,dataset_bytes,storage_nodes,compute_nodes,"
          "bandwidth_bytes_per_second,runtime_seconds,completed,time")
    for i in range(n):
        name, vcpus = rng.choice(types)
        m = rng.choice(nodes)
        seconds = (60 + 8000 / (m * vcpus)) * math.exp(rng.gauss(0, 0.1))
        print(f"w,{name},1e10,{m},{m},1.25e8,{seconds:.3f},true,{i}")


if __name__ == "__main__":
    main()
