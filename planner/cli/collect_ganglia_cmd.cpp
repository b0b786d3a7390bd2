// `perfplan collect ganglia`: poll gmond/gmetad (or read a saved file) into the profile store.
// SIGINT and SIGTERM stop the collection after the poll in progress; committed polls are kept.
#include <csignal>
#include <memory>
#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/options.h"
#include "planner/cli/store_flags.h"
#include "planner/ganglia/ganglia_collect.h"
#include "profiles/ganglia/ganglia_store.h"

namespace perfplan::cli {
namespace {

struct CollectGangliaFlags : StoreFlags {
  planner::CollectOptions settings;
};

// Set by the signal handler only; read by the collection loop.
volatile std::sig_atomic_t g_stop_requested = 0;

void RequestStop(int) { g_stop_requested = 1; }

// Installs the SIGINT/SIGTERM handlers for the life of the object, then restores the old ones.
class StopOnSignals {
 public:
  StopOnSignals() {
    g_stop_requested = 0;
    struct sigaction sa {};
    sa.sa_handler = RequestStop;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;  // no SA_RESTART: a blocking poll() returns EINTR at once
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopOnSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

void PrintCollect(std::ostream& out, const planner::CollectAnswer& a, const std::string& store) {
  out << "collected " << a.samples << " new samples (" << a.samples_seen << " seen) from "
      << a.source << " (" << a.kind << ") in " << a.polls << " poll(s) into " << store << "\n";
  out << a.hosts.size() << " host(s), " << a.metrics.size() << " metric(s)";
  if (a.failed_polls) out << ", " << a.failed_polls << " failed poll(s)";
  if (a.interrupted) out << "; stopped by signal";
  out << "\n";
  for (const std::string& w : a.warnings) out << "warning: " << w << "\n";
}

}  // namespace

void AddCollectGangliaCommand(CLI::App& parent, CliContext& ctx) {
  auto flags = std::make_shared<CollectGangliaFlags>();
  CLI::App* cmd = AddVerb(parent, "ganglia",
                          "Poll gmond/gmetad XML (or read a saved Ganglia file) into the store");
  cmd->footer(
      "Examples:\n  perfplan collect ganglia --source 127.0.0.1:8649 --interval 5 --duration 60\n"
      "  perfplan collect ganglia --source gmond.xml --json");
  cmd->add_option("--source", flags->settings.source,
                  "HOST:PORT of gmond (8649) or gmetad (8651), or a Ganglia file")
      ->required();
  cmd->add_option("--interval", flags->settings.interval_seconds, "Seconds between polls")
      ->capture_default_str();
  cmd->add_option("--duration", flags->settings.duration_seconds,
                  "Seconds to keep polling (0 = one poll)")
      ->capture_default_str();
  cmd->add_option("--timeout", flags->settings.timeout_seconds,
                  "Seconds one poll may take before it fails")
      ->capture_default_str();
  AddStoreFlags(*cmd, *flags)->capture_default_str();
  cmd->callback([flags, &ctx] {
    if (Status s = flags->settings.Validate(); !s.ok()) {
      return ReportError(ctx, "collect ganglia", s, flags->json);
    }
    auto store = profiles::Store::Open(flags->store, {profiles::GangliaMigrations()});
    if (!store.ok()) return ReportError(ctx, "collect ganglia", store.status(), flags->json);
    StopOnSignals signals;
    planner::CollectHooks hooks;
    hooks.should_stop = [] { return g_stop_requested != 0; };
    WriteAnswer(ctx, "collect ganglia", flags->json,
                planner::CollectGanglia(*store.value(), flags->settings, hooks),
                [&](std::ostream& out, const planner::CollectAnswer& a) {
                  PrintCollect(out, a, flags->store);
                });
  });
}

}  // namespace perfplan::cli
