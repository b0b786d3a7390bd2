// perfplan: the command-line program. Parses arguments, calls the planner, maps the result to an
// exit code (0 ok, 1 failed, 2 bad usage or input). All work happens in the library.
#include <iostream>

#include "planner/cli/command.h"
#include "profiles/problem.h"

namespace {

int Run(int argc, char** argv) {
  using perfplan::cli::Commands;
  perfplan::cli::CliContext ctx{&std::cout, &std::cerr, 0};

  CLI::App app{
      "perfplan: performance prediction and resource selection for data-intensive cluster jobs",
      "perfplan"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Show help for every command");
  for (const auto& spec : Commands()) spec.add(*app.add_subcommand(spec.name, spec.summary), ctx);

  if (argc > 1 && argv[1][0] != '-') {
    const std::string word = argv[1];
    std::vector<std::string_view> names;
    bool known = false;
    for (const auto& spec : Commands()) {
      names.push_back(spec.name);
      known |= word == spec.name;
    }
    if (!known) {
      std::cerr << "perfplan: unknown command \"" << word << "\"";
      const std::string suggestion = perfplan::profiles::SuggestClosest(word, names);
      if (!suggestion.empty()) std::cerr << "; did you mean \"" << suggestion << "\"?";
      std::cerr << "\nRun 'perfplan --help' for the list of commands.\n";
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
    return 2;
  }
  return ctx.exit_code;
}

}  // namespace

int main(int argc, char** argv) { return Run(argc, argv); }
