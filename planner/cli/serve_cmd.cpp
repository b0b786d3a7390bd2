// `perfplan serve`: the HTTP JSON service in the foreground until SIGINT or SIGTERM.
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <ostream>
#include <tuple>

#include "planner/cli/command.h"
#include "planner/service/service.h"

namespace perfplan::cli {
namespace {

struct ServeFlags {
  std::string listen = "127.0.0.1:8080";
  std::vector<std::string> profiles;
  std::string topology;
  std::string token_file;
  planner::ServiceOptions options;
  std::size_t max_body_kib = 1024;
};

// "HOST:PORT" → host and port; the host may be empty ("":8080 means loopback).
Status ParseListen(const std::string& text, planner::ServiceOptions* options) {
  const std::size_t colon = text.rfind(':');
  const std::string port = colon == std::string::npos ? "" : text.substr(colon + 1);
  char* end = nullptr;
  const long value = std::strtol(port.c_str(), &end, 10);
  if (port.empty() || *end != '\0' || value < 0 || value > 65535) {
    return Status::InvalidArgument("--listen: expected HOST:PORT with PORT in 0..65535, got \"" +
                                   text + "\"");
  }
  if (colon > 0) options->host = text.substr(0, colon);
  options->port = static_cast<int>(value);
  return Status::Ok();
}

// The bearer token: from --token-file, else $PERFPLAN_TOKEN, else none. Surrounding whitespace
// (a trailing newline in the file) is not part of the token.
Result<std::string> ReadToken(const std::string& file) {
  std::string token;
  if (!file.empty()) {
    std::ifstream in(file);
    if (!in) return Status::InvalidArgument("--token-file: cannot read " + file);
    std::getline(in, token);
  } else if (const char* env = std::getenv("PERFPLAN_TOKEN")) {
    token = env;
  }
  while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back()))) token.pop_back();
  while (!token.empty() && std::isspace(static_cast<unsigned char>(token.front()))) {
    token.erase(token.begin());
  }
  if (!file.empty() && token.empty()) {
    return Status::InvalidArgument("--token-file: " + file + " holds no token");
  }
  return token;
}

}  // namespace

void AddServeCommand(CLI::App& cmd, CliContext& ctx) {
  auto flags = std::make_shared<ServeFlags>();
  cmd.footer(
      "Example:\n  perfplan serve --listen 127.0.0.1:8080 --profiles examples/profiles "
      "--topology examples/topology.yaml\n  curl -s localhost:8080/v1/predict -d "
      "'{\"application\": \"kmeans\", \"dataset_bytes\": 8e9, \"storage_nodes\": 4, "
      "\"compute_nodes\": 16, \"bandwidth_bytes_per_second\": 1.25e8}'");
  cmd.add_option("--listen", flags->listen, "HOST:PORT to listen on (port 0: any free port)");
  cmd.add_option("--profiles", flags->profiles,
                 "Profile files, or folders of them, served by application name");
  cmd.add_option("--topology", flags->topology, "Topology for /v1/select and --site");
  cmd.add_option("--store", flags->options.store_path,
                 "Profile store with ingested Spark event logs: serves GET /api/v1/…");
  cmd.add_option("--models", flags->options.models_dir,
                 "Folder of <workload>.model.json files (tune train): serves /v1/tuning/…");
  cmd.add_option("--token-file", flags->token_file,
                 "File holding a bearer token every request must carry (else $PERFPLAN_TOKEN)");
  cmd.add_option("--max-body-kib", flags->max_body_kib, "Largest request body, KiB")
      ->check(CLI::Range(1, 1 << 20));
  // The timeouts, each from a second to an hour.
  const std::tuple<const char*, int*, const char*> timeouts[] = {
      {"--read-timeout-seconds", &flags->options.read_timeout_seconds,
       "Disconnect clients that send nothing for this long"},
      {"--write-timeout-seconds", &flags->options.write_timeout_seconds,
       "Disconnect clients that do not read for this long"},
      {"--header-timeout-seconds", &flags->options.header_timeout_seconds,
       "Answer 408 when a request's line and headers take longer than this"}};
  for (const auto& [flag, seconds, description] : timeouts) {
    cmd.add_option(flag, *seconds, description)->check(CLI::Range(1, 3600));
  }
  cmd.add_option("--max-connections", flags->options.max_connections,
                 "Open connections served at once; the next one is answered 503")
      ->check(CLI::Range(1, 1000000));
  cmd.add_option("--threads", flags->options.threads, "Worker threads")->check(CLI::Range(1, 1024));
  cmd.callback([flags, &ctx] {
    // Any subset serves what it can: a store alone answers /api/v1/…, models alone /v1/tuning/….
    if (flags->profiles.empty() && flags->options.store_path.empty() &&
        flags->options.models_dir.empty()) {
      return ReportError(ctx, "serve",
                         Status::InvalidArgument(
                             "nothing to serve: give --profiles, --store or --models (any subset)"),
                         false);
    }
    if (Status s = ParseListen(flags->listen, &flags->options); !s.ok()) {
      return ReportError(ctx, "serve", s, false);
    }
    flags->options.max_body_bytes = flags->max_body_kib * 1024;
    Result<std::string> token = ReadToken(flags->token_file);
    if (!token.ok()) return ReportError(ctx, "serve", token.status(), false);
    flags->options.token = token.value();
    Result<planner::Catalog> catalog = planner::Catalog::Load(flags->profiles, flags->topology);
    if (!catalog.ok()) return ReportError(ctx, "serve", catalog.status(), false);

    // Block the stop signals before any thread starts, so only sigwait below receives them.
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

    planner::Service service(std::move(catalog).value(), flags->options, ctx.err);
    if (Status s = service.Start(); !s.ok()) return ReportError(ctx, "serve", s, false);
    *ctx.err << "perfplan serve: listening on http://" << flags->options.host << ":"
             << service.port() << (flags->options.token.empty() ? "" : " (bearer token required)")
             << std::endl;
    if (flags->options.host != "127.0.0.1" && flags->options.host != "localhost" &&
        flags->options.host != "::1" && flags->options.token.empty()) {
      *ctx.err << "perfplan serve: warning: listening beyond loopback without a token\n";
    }
    int signal_number = 0;
    sigwait(&stop_signals, &signal_number);
    *ctx.err << "perfplan serve: " << (signal_number == SIGINT ? "SIGINT" : "SIGTERM")
             << ", stopping after in-flight requests" << std::endl;
    service.Stop();
  });
}

}  // namespace perfplan::cli
