// `perfplan report` opened in headless Chromium: the page renders (a non-blank screenshot), the
// DOM Chromium built holds every SVG chart with its marks, and the console stays silent. Exits 77
// (CTest: skipped) with the reason when /usr/bin/chromium is not installed (scripts/deps.sh).
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>

#include "tests/support/test_support.h"

namespace perfplan {
namespace {

constexpr const char* kChromium = "/usr/bin/chromium";

struct Run {
  int exit_code = -1;
  std::string out;
};

Run Shell(const std::string& cmd) {
  Run r;
  std::FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string ChromiumCommand(const std::string& dir, const std::string& what) {
  return std::string("timeout 120 ") + kChromium +
         " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
         " --disable-background-networking --disable-component-update --disable-sync"
         " --enable-logging=stderr --v=0 --user-data-dir='" +
         dir + "/profile' " + what;
}

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST_CASE("headless Chromium renders every chart of the report") {
  if (access(kChromium, X_OK) != 0) {
    std::cout << "skipped: " << kChromium
              << " is not installed (apt-get install chromium; see scripts/deps.sh)\n";
    std::exit(77);
  }
  const std::string dir = testing::MakeTempDir();
  const std::string examples = testing::SourceDir() + "/examples";
  const std::string html = dir + "/report.html";
  const Run report = Shell(testing::BinaryDir() + "/perfplan report --out '" + html +
                           "' --profiles " + examples + "/profiles/kmeans.yaml " + examples +
                           "/profiles/em.yaml --topology " + examples + "/topology.yaml");
  REQUIRE(report.exit_code == 0);
  const std::size_t charts = Count(testing::ReadFile(html), "<svg");
  REQUIRE(charts >= 3);

  const Run dom =
      Shell(ChromiumCommand(dir, "--dump-dom 'file://" + html + "'") + " 2>'" + dir + "/dom.log'");
  REQUIRE(dom.exit_code == 0);
  CHECK(Count(dom.out, "<svg") == charts);
  CHECK(Count(dom.out, "<title>") >= charts + 1);  // the page's and each chart's
  CHECK(Count(dom.out, "class=\"x-label\"") == charts);
  CHECK(Count(dom.out, "class=\"y-label\"") == charts);
  CHECK(Count(dom.out, "<circle class=\"point\"") > 0);
  CHECK(Count(dom.out, "<path class=\"bar\"") > 0);
  const std::string dom_log = testing::ReadFile(dir + "/dom.log");
  INFO(dom_log);
  CHECK(Count(dom_log, "CONSOLE") == 0);  // no console messages (errors or otherwise)

  const std::string png = dir + "/r.png";
  const Run shot =
      Shell(ChromiumCommand(
                dir, "--screenshot='" + png + "' --window-size=1200,3000 'file://" + html + "'") +
            " 2>'" + dir + "/shot.log'");
  REQUIRE(shot.exit_code == 0);
  REQUIRE(std::filesystem::exists(png));
  const std::string bytes = testing::ReadFile(png);
  CHECK(bytes.rfind("\x89PNG", 0) == 0);
  // A blank 1200×3000 page compresses to a few kilobytes; drawn charts do not.
  CHECK(bytes.size() > 20000);
  const std::set<unsigned char> distinct(bytes.begin(), bytes.end());
  CHECK(distinct.size() > 200);
  std::cout << "chromium: " << charts << " charts, screenshot " << bytes.size() << " bytes, "
            << distinct.size() << " distinct byte values\n";
}

}  // namespace
}  // namespace perfplan
