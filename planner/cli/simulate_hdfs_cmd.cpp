#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/options.h"
#include "planner/hdfs/hdfs.h"

namespace perfplan::cli {
namespace {
struct SimulateHdfsFlags {
  profiles::HdfsSimulationOptions settings;
  std::string version = "3.4";
  std::string out = "hdfs-sim";
  bool json = false;
};

void PrintSimulation(std::ostream& out, const profiles::HdfsSimulation& sim) {
  const auto& t = sim.truth;
  out << "wrote " << sim.audit_log << ", " << sim.namenode_log << " and "
      << sim.datanode_logs.size() << " DataNode logs\n"
      << "truth: write_bytes " << t.write_bytes << " = data " << t.data_bytes << " + control "
      << t.control_bytes << "; read_bytes " << t.read_bytes << " (data files "
      << t.data_read_bytes << ", checksums included); blocks " << t.blocks
      << "\ningest with:\n  perfplan ingest hdfs --node nn1=" << sim.audit_log
      << " --node nn1=" << sim.namenode_log;
  for (const auto& [name, path] : sim.datanode_logs) out << " --node " << name << "=" << path;
  out << "\n";
}
}  // namespace

void AddSimulateHdfsCommand(CLI::App& parent, CliContext& ctx) {
  auto flags = std::make_shared<SimulateHdfsFlags>();
  CLI::App* cmd = AddVerb(
      parent, "hdfs", "Write NameNode and DataNode logs of a TestDFSIO-like write-then-read run");
  cmd->footer(
      "Example:\n  perfplan simulate hdfs --files 8 --file-size 100000000 --clients 4 "
      "--datanodes 3 --out sim\n  perfplan ingest hdfs --node nn1=sim/namenode/hdfs-audit.log "
      "--node nn1=sim/namenode/hadoop-hdfs-namenode-nn1.log --node "
      "dn1=sim/dn1/hadoop-hdfs-datanode-dn1.log …");
  auto& s = flags->settings;
  cmd->add_option("--files", s.files, "K: data files (map tasks)")->capture_default_str();
  cmd->add_option("--file-size", s.file_bytes, "S: bytes per data file")->capture_default_str();
  cmd->add_option("--clients", s.clients, "C: client hosts")->capture_default_str();
  cmd->add_option("--datanodes", s.datanodes, "D: DataNodes")->capture_default_str();
  cmd->add_option("--block-size", s.block_bytes, "dfs.blocksize in bytes")->capture_default_str();
  cmd->add_option("--replication", s.replication, "dfs.replication")->capture_default_str();
  cmd->add_option("--seed", s.seed, "Seed for replica choice on reads")->capture_default_str();
  cmd->add_option("--hadoop-version", flags->version, "Log shapes of Hadoop 2, 3.3 or 3.4")
      ->capture_default_str();
  cmd->add_option("--rotate-bytes", s.rotate_bytes,
                  "Roll logs at this size (.log.1, older .log.N.gz); 0 = never")
      ->capture_default_str();
  cmd->add_option("--out", flags->out, "Output folder")->capture_default_str();
  AddJsonFlag(*cmd, flags->json);
  cmd->callback([flags, &ctx] {
    auto version = profiles::ParseHadoopVersion(flags->version);
    if (!version.ok()) return ReportError(ctx, "simulate hdfs", version.status(), flags->json);
    flags->settings.version = version.value();
    WriteAnswer(ctx, "simulate hdfs", flags->json,
                planner::AnswerSimulateHdfs(flags->settings, flags->out), PrintSimulation,
                [](const profiles::HdfsSimulation& sim) { return planner::ToJson(sim); });
  });
}

}  // namespace perfplan::cli
