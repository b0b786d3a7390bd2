// Profiles with many runs (issue 16, item 5: `validate` of a 200,000-run profile <= 2 s, `predict`
// on it bounded; docs/performance.md, "Profiles of 200,000 runs").
//
//   profile_bench generate RUNS FILE [yaml|json]   write a profile of RUNS runs as perfplan
//                                                  writes it (WriteProfileYaml, or JSON), the
//                                                  classes "auto" (inferred at every read)
//   profile_bench read FILE [yaml-cpp]             ValidateFile, then LoadProfile + ResolveModel +
//                                                  one Predict; "yaml-cpp" reads the same text
//                                                  through yaml-cpp (a leading "#<TAB>" comment
//                                                  keeps it out of the one-pass reader)
//
// Plain timing of one run on one core: wall and CPU seconds (getrusage, user + sys) per step, peak
// RSS of the process. The end-to-end figures are `/usr/bin/time perfplan validate|predict`
// (bench/profile_scale.sh); this tool separates the steps. Generated files are not committed.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "models/runtime_model.h"
#include "profiles/runtime/profile_reader.h"
#include "profiles/runtime/profile_writer.h"
#include "profiles/runtime/validate.h"

namespace {

using perfplan::models::ProfileRun;
using perfplan::models::RuntimeProfile;

double CpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}
double PeakMiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

// Times `step` and prints "name: wall W s, cpu C s".
template <typename Step>
void Timed(const char* name, Step step) {
  const auto start = std::chrono::steady_clock::now();
  const double cpu = CpuSeconds();
  step();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%-28s wall %7.3f s  cpu %7.3f s\n", name, wall, CpuSeconds() - cpu);
}

// k-means-like runs over 7 dataset sizes and 3 node counts, classes inferred ("auto").
RuntimeProfile Generated(long runs) {
  RuntimeProfile p;
  p.application = "kmeans";
  p.reduction_object_class = perfplan::models::ReductionObjectClass::kConstant;
  p.global_reduction_class = perfplan::models::GlobalReductionClass::kLinearConstant;
  for (long i = 0; i < runs; ++i) {
    ProfileRun r;
    const double size = static_cast<double>(1 + i % 7);
    const double nodes = static_cast<double>(4 << (i % 3));
    r.dataset_bytes = 1.4e9 * size;
    r.storage_nodes = 2;
    r.compute_nodes = nodes;
    r.bandwidth_bytes_per_second = 12.5e6;
    r.disk_seconds = 14.0 * size * (1 + 1e-6 * static_cast<double>(i));
    r.network_seconds = 56.0 * size;
    r.compute_seconds = 486.0 * size / nodes + 1.5;
    r.reduction_object_bytes = 16000;
    r.reduction_seconds = 0.9;
    r.global_reduction_seconds = 0.15 * nodes;
    p.runs.push_back(r);
  }
  return p;
}

std::string Json(const RuntimeProfile& p) {
  // The same entries as the YAML writer, spelled as JSON (what `fit --json` and requests carry).
  const perfplan::profiles::ProfileEntries doc = perfplan::profiles::ListProfileEntries(p, "", "");
  auto value = [](const perfplan::profiles::ProfileEntry& e) {
    using Kind = perfplan::profiles::ProfileEntry::Kind;
    std::ostringstream os;
    os.precision(17);
    switch (e.kind) {
      case Kind::kText:
      case Kind::kWord: return "\"" + e.text + "\"";
      case Kind::kFlag: return std::string(e.flag ? "true" : "false");
      default: os << e.number; return os.str();
    }
  };
  std::string out = "{";
  for (const auto& e : doc.top) out += "\"" + e.key + "\": " + value(e) + ",\n";
  out += "\"runs\": [\n";
  for (std::size_t i = 0; i < doc.runs.size(); ++i) {
    out += i ? ",\n {" : " {";
    for (std::size_t k = 0; k < doc.runs[i].size(); ++k) {
      out += (k ? ", \"" : "\"") + doc.runs[i][k].key + "\": " + value(doc.runs[i][k]);
    }
    out += "}";
  }
  return out + "\n]}\n";
}

int Usage() {
  std::cerr << "usage: profile_bench generate RUNS FILE [yaml|json]\n"
               "       profile_bench read FILE [yaml-cpp]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return Usage();
  const std::string mode = argv[1];
  if (mode == "generate" && argc >= 4) {
    const RuntimeProfile p = Generated(std::atol(argv[2]));
    const bool json = argc >= 5 && std::string(argv[4]) == "json";
    std::string text = json ? Json(p) : perfplan::profiles::WriteProfileYaml(p, "", "", {});
    // The writer states the classes; "auto" makes every read infer them over all the runs (the
    // part of `validate` and `predict` that was quadratic).
    auto set_auto = [&](const std::string& key, const std::string& value) {
      const std::string q = json ? "\"" : "";
      const std::string from = q + key + q + ": " + q + value + q;
      if (const std::size_t at = text.find(from); at != std::string::npos) {
        text.replace(at, from.size(), q + key + q + ": " + q + "auto" + q);
      }
    };
    set_auto("reduction_object_class", "constant");
    set_auto("global_reduction_class", "linear-constant");
    std::ofstream(argv[3]) << text;
    return 0;
  }
  if (mode != "read") return Usage();
  std::string path = argv[2];
  if (argc >= 4 && std::string(argv[3]) == "yaml-cpp") {
    std::ifstream in(path);
    std::stringstream text;
    text << "#\t\n" << in.rdbuf();
    path += ".yaml-cpp";
    std::ofstream(path) << text.str();
  }
  perfplan::profiles::FileValidation validation;
  Timed("validate (ValidateFile)", [&] { validation = perfplan::profiles::ValidateFile(path); });
  perfplan::profiles::Loaded<perfplan::profiles::ProfileDocument> doc;
  Timed("LoadProfile", [&] { doc = perfplan::profiles::LoadProfile(path); });
  if (!doc.ok() || !validation.problems.empty()) {
    std::cerr << perfplan::profiles::FormatProblem(doc.problems.empty() ? validation.problems[0]
                                                                        : doc.problems[0])
              << "\n";
    return 1;
  }
  double seconds = 0;
  Timed("ResolveModel + Predict", [&] {
    auto model = perfplan::models::ResolveModel(doc.value.profile);
    perfplan::models::Target t;
    t.dataset_bytes = 8e9;
    t.storage_nodes = 4;
    t.compute_nodes = 16;
    t.bandwidth_bytes_per_second = 1.25e8;
    if (model.ok()) seconds = perfplan::models::Predict(model.value(), t).runtime_seconds;
  });
  std::printf("runs %zu, read in one pass: %s, predicted %.3f s, peak RSS %.1f MiB\n",
              doc.value.profile.runs.size(), doc.value.read_in_one_pass ? "yes" : "no", seconds,
              PeakMiB());
  return 0;
}
