// Inputs shared by the plan, capacity, export, service and report tests (header only): runs CSVs
// of one workload, and a price file for the example topology's sites and two instance types.
#pragma once

#include <string>
#include <vector>

namespace perfplan::testing {

// Completed runs of `workload` at 4, 8, 16, 32 and 64 nodes (1e10 bytes, 1e8 B/s): type "small"
// takes 50 + 2000/c (+ c mod 7) s, type "large" 30 + 900/c (+ c mod 5) s.
inline std::string TwoTypeRunsCsv(const std::string& workload) {
  std::string csv =
      "workload,instance_type,dataset_bytes,storage_nodes,compute_nodes,"
      "bandwidth_bytes_per_second,runtime_seconds,completed\n";
  for (int c : {4, 8, 16, 32, 64}) {
    const std::string n = std::to_string(c);
    csv += workload + ",small,1e10," + n + "," + n + ",1e8," +
           std::to_string(50 + 2000.0 / c + c % 7) + ",true\n";
    csv += workload + ",large,1e10," + n + "," + n + ",1e8," +
           std::to_string(30 + 900.0 / c + c % 5) + ",true\n";
  }
  return csv;
}

// USD, 60 s minimum: the three compute sites of examples/topology.yaml and the types above.
inline std::string SitesAndTypesPrices() {
  return "schema_version: 1\ncurrency: USD\nminimum_billing_seconds: 60\nprices:\n"
         "  - {site: osu-cluster, price_per_node_hour: 0.40}\n"
         "  - {site: anl-cluster, price_per_node_hour: 0.90}\n"
         "  - {site: campus-lab, price_per_node_hour: 0.20}\n"
         "  - {instance_type: small, price_per_node_hour: 0.10}\n"
         "  - {instance_type: large, price_per_node_hour: 0.35}\n";
}

// An instance type whose runs take serial_seconds + work_seconds / nodes.
struct LinearType {
  std::string name;
  double serial_seconds = 0;
  double work_seconds = 0;
};

// One completed run of `workload` per node count and type (types within each count, in order),
// `bytes` bytes read at 1e8 bytes/s, storage nodes = compute nodes.
inline std::string LinearRunsCsv(const std::string& workload, const std::vector<LinearType>& types,
                                 const std::vector<int>& counts,
                                 const std::string& bytes = "1e10") {
  std::string csv =
      "workload,instance_type,dataset_bytes,storage_nodes,compute_nodes,"
      "bandwidth_bytes_per_second,runtime_seconds,completed\n";
  for (int c : counts) {
    const std::string n = std::to_string(c);
    for (const LinearType& t : types) {
      csv += workload + "," + t.name + "," + bytes + "," + n + "," + n + ",1e8," +
             std::to_string(t.serial_seconds + t.work_seconds / c) + ",true\n";
    }
  }
  return csv;
}

}  // namespace perfplan::testing
