// Imports the Scout measurements (oxhead/scout, dataset/osr_multiple_nodes/<dir>/report.json) as
// runs (DESIGN §6 `perfplan import scout DIR`).
//
// Each folder is named <nodes>_<instance type>_<workload>_<framework>_<datasize>_<repetition>;
// report.json holds completed, elapsed_time, input_size, workload and framework, as strings in
// completed runs and JSON numbers in the others. A run becomes: workload = <workload>_<framework>,
// instance_type and compute_nodes from the folder name, storage_nodes = compute_nodes (HDFS on
// the compute nodes), bandwidth = the instance type's network bandwidth (models/instance_types.h),
// dataset_bytes = input_size, runtime_seconds = elapsed_time, completed as recorded. A run that
// records input_size -1 (every run that did not complete; every run of Spark 1.5's HiBench
// workloads) gets the size given for its workload in `given_sizes`, else the median input_size of
// the workload's runs that record one; a workload with neither is one problem (field input_size,
// line 0, file `dir`, message "workload NAME records no input size …"). Folder links are
// followed (each folder walked once). Thread-safe (reads files only).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "models/runtime_fit.h"
#include "profiles/problem.h"

namespace perfplan::profiles {

// Reads every <DIR>/**/report.json (sorted by path). Problems name the file and field; a folder
// whose name does not follow the layout, an unknown instance type or a bad value is a problem.
// `given_sizes`: workload (<workload>_<framework>) -> dataset bytes for runs that record none.
Loaded<std::vector<models::MeasuredRun>> ImportScout(
    const std::string& dir, const std::map<std::string, double>& given_sizes = {});

}  // namespace perfplan::profiles
