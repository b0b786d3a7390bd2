// perfplan: the command-line program. Parses arguments, calls the planner, maps the result to an
// exit code (0 ok, 1 failed, 2 bad usage or input). All work happens in the library.
#include <cerrno>
#include <cstring>
#include <exception>
#include <iostream>
#include <string_view>

#include "planner/cli/command.h"
#include "planner/runtime/json_output.h"
#include "planner/service/service.h"
#include "profiles/library_versions.h"
#include "profiles/problem.h"

namespace {

// `perfplan --version`: what a bug report needs to name the build.
void PrintVersion(std::ostream& out) {
  out << "perfplan " << PERFPLAN_VERSION << "\n"
      << "commit " << PERFPLAN_GIT_COMMIT << "\n"
      << "build type " << (std::string(PERFPLAN_BUILD_TYPE).empty() ? "none" : PERFPLAN_BUILD_TYPE)
      << "\n";
  for (const auto& [name, version] : perfplan::profiles::LibraryVersions()) {
    out << name << " " << version << "\n";
  }
  out << "http server: " << perfplan::planner::HttpServerName() << "\n";
}

// A script that asked for --json reads stdout as JSON, also when the command line is wrong.
bool WantsJson(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--json") return true;
  }
  return false;
}

int Run(int argc, char** argv) {
  using perfplan::cli::Commands;
  perfplan::cli::CliContext ctx{&std::cout, &std::cerr, 0};

  CLI::App app{
      "perfplan: performance prediction and resource selection for data-intensive cluster jobs",
      "perfplan"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Show help for every command");
  // Handled before parsing (it needs no command); declared so that --help lists it.
  bool version_flag = false;
  app.add_flag("--version", version_flag,
               "Print the version, git commit, build type and library versions");
  for (const auto& spec : Commands()) spec.add(*app.add_subcommand(spec.name, spec.summary), ctx);

  if (argc == 2 && std::string_view(argv[1]) == "--version") {
    PrintVersion(std::cout);
    return 0;
  }
  if (argc > 1 && argv[1][0] != '-') {
    const std::string word = argv[1];
    std::vector<std::string_view> names;
    bool known = false;
    for (const auto& spec : Commands()) {
      names.push_back(spec.name);
      known |= word == spec.name;
    }
    if (!known) {
      std::string message = "unknown command \"" + word + "\"";
      const std::string suggestion = perfplan::profiles::SuggestClosest(word, names);
      if (!suggestion.empty()) message += "; did you mean \"" + suggestion + "\"?";
      std::cerr << "perfplan: " << message << "\nRun 'perfplan --help' for the list of commands.\n";
      if (WantsJson(argc, argv)) {
        std::cout << perfplan::planner::ErrorToJson(perfplan::Status::InvalidArgument(message));
      }
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    if (WantsJson(argc, argv)) {
      std::cout << perfplan::planner::ErrorToJson(perfplan::Status::InvalidArgument(e.what()));
    }
    return 2;
  }
  return ctx.exit_code;
}

// Answers are buffered: a full device (`> /dev/full`) only fails at the final flush, which must
// not exit 0. A reader that stops early (`| head`) is not an error: EPIPE (when SIGPIPE is
// ignored; by default the signal ends the process quietly) keeps the command's own code.
int FinishStandardOutput(int code) {
  errno = 0;
  std::cout.flush();
  if (!std::cout.fail()) return code;
  const int error = errno;
  if (error == EPIPE) return code;
  std::cerr << "perfplan: error: writing standard output failed"
            << (error != 0 ? std::string(" (") + std::strerror(error) + ")" : std::string())
            << "\n";
  return code == 0 ? 1 : code;
}

}  // namespace

// Bad input is reported by the library as a Status; an exception reaching this point is a bug
// (tests/hostile_inputs_test.cpp and tests/hostile_sweep.sh check that none does). It still ends
// as exit 2 with its message rather than an abort and a core dump.
int main(int argc, char** argv) {
  try {
    return FinishStandardOutput(Run(argc, argv));
  } catch (const std::exception& e) {
    std::cerr << "perfplan: internal error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "perfplan: internal error: unknown exception\n";
  }
  return 2;
}
