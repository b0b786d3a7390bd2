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

#include "tests/support/cli_run.h"
#include "tests/support/plan_inputs.h"
#include "tests/support/spark_codecs.h"
#include "tests/support/test_support.h"

namespace perfplan {
namespace {

constexpr const char* kChromium = "/usr/bin/chromium";

using Run = testing::CliRun;

Run Shell(const std::string& cmd) { return testing::RunShell(cmd); }

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

// Measures every <text> of every chart in the page Chromium lays out: a copy of the report with a
// script appended (the report itself has none) writes one line per problem into <pre id=geometry>:
// a text box outside its SVG's viewBox, or two text boxes of one SVG that overlap (by more than
// half a pixel each way; boxes in viewBox units, the charts are drawn at scale 1).
std::string Geometry(const std::string& dir, const std::string& html) {
  const std::string probe = dir + "/probe.html";
  std::string page = testing::ReadFile(html);
  const std::string script = R"(<script>
window.addEventListener('load', () => {
  const out = [];
  let texts = 0;
  document.querySelectorAll('svg').forEach((svg, k) => {
    const vb = svg.viewBox.baseVal, r = svg.getBoundingClientRect();
    const sx = vb.width / r.width, sy = vb.height / r.height;
    const boxes = [];
    svg.querySelectorAll('text').forEach((t) => {
      if (!t.textContent.trim()) return;
      ++texts;
      const b = t.getBoundingClientRect();
      const box = {x0: (b.left - r.left) * sx, y0: (b.top - r.top) * sy,
                   x1: (b.right - r.left) * sx, y1: (b.bottom - r.top) * sy, s: t.textContent};
      if (box.x0 < -0.5 || box.y0 < -0.5 || box.x1 > vb.width + 0.5 || box.y1 > vb.height + 0.5) {
        out.push('svg ' + k + ': outside the viewBox: "' + box.s + '" [' + box.x0.toFixed(1) + ',' +
                 box.y0.toFixed(1) + ' - ' + box.x1.toFixed(1) + ',' + box.y1.toFixed(1) + ']');
      }
      boxes.forEach((o) => {
        if (Math.min(box.x1, o.x1) - Math.max(box.x0, o.x0) > 0.5 &&
            Math.min(box.y1, o.y1) - Math.max(box.y0, o.y0) > 0.5) {
          out.push('svg ' + k + ': overlap: "' + box.s + '" and "' + o.s + '"');
        }
      });
      boxes.push(box);
    });
  });
  const pre = document.createElement('pre');
  pre.id = 'geometry';
  pre.textContent = 'texts ' + texts + '\n' + out.join('\n');
  document.body.appendChild(pre);
});
</script>)";
  const std::size_t end = page.rfind("</body>");
  REQUIRE(end != std::string::npos);
  page.insert(end, script);
  testing::WriteFile(probe, page);
  const Run dom = Shell(ChromiumCommand(dir, "--virtual-time-budget=5000 --dump-dom 'file://" +
                                                 probe + "'") +
                        " 2>'" + dir + "/probe.log'");
  REQUIRE(dom.exit_code == 0);
  const std::size_t at = dom.out.find("<pre id=\"geometry\">");
  REQUIRE(at != std::string::npos);
  const std::size_t from = at + std::string("<pre id=\"geometry\">").size();
  return dom.out.substr(from, dom.out.find("</pre>", from) - from);
}

TEST_CASE("in Chromium's layout every label lies inside its chart and no two labels overlap") {
  if (access(kChromium, X_OK) != 0) {
    std::cout << "skipped: " << kChromium << " is not installed\n";
    std::exit(77);
  }
  const std::string dir = testing::MakeTempDir();
  const std::string examples = testing::SourceDir() + "/examples";
  const std::string html = dir + "/report.html";
  // Every chart kind: stacked bars with many long categories (selection), scatter with y = x
  // (profiles), bars of sensitivity (a tuning model trained here), Lorenz lines with markers.
  // A runs CSV of two instance types: the evaluate scatter (three series on y = x) and the
  // runtime-against-nodes lines with their interval and measured runs.
  testing::WriteFile(dir + "/runs.csv", testing::TwoTypeRunsCsv("w"));
  // Prices for the topology's sites and both instance types: the decision table's cost column
  // and the cost-against-time charts with their Pareto fronts.
  testing::WriteFile(dir + "/prices.yaml", testing::SitesAndTypesPrices());
  // A store of three runs of one Spark application at 1 and 2 executors: the Spark plan's
  // runtime-against-executors chart with the fitted history, its interval and the chosen marker.
  std::filesystem::create_directories(dir + "/logs");
  for (int i = 0; i < 3; ++i) {
    const std::string id = "app-browser-" + std::to_string(i);
    testing::WriteFile(dir + "/logs/" + id,
                       testing::OnExecutors(testing::SyntheticEventLog(id, 2, 12 + i), 1 + i % 2));
  }
  REQUIRE(Shell(testing::BinaryDir() + "/perfplan ingest spark '" + dir + "/logs' --store '" +
                dir + "/s.db'")
              .exit_code == 0);
  const Run report = Shell(testing::BinaryDir() + "/perfplan report --out '" + html +
                           "' --profiles " + examples + "/profiles/kmeans.yaml " + examples +
                           "/profiles/em.yaml " + examples + "/profiles/defect.yaml --topology " +
                           examples + "/topology.yaml --runs '" + dir +
                           "/runs.csv' --workload w --train 'compute_nodes<=16' --prices '" +
                           dir + "/prices.yaml' --store '" + dir + "/s.db'");
  REQUIRE(report.exit_code == 0);
  CHECK(testing::ReadFile(html).find("Runtime against executor count, synthetic") !=
        std::string::npos);
  CHECK(testing::ReadFile(html).find("id=\"runtime-nodes\"") != std::string::npos);
  CHECK(testing::ReadFile(html).find("id=\"pareto\"") != std::string::npos);
  CHECK(testing::ReadFile(html).find("Cost against predicted time, workload w") !=
        std::string::npos);
  const std::string geometry = Geometry(dir, html);
  INFO(geometry);
  CHECK(geometry.rfind("texts ", 0) == 0);
  CHECK(std::stoul(geometry.substr(6)) > 50);  // the probe measured the labels
  const std::size_t eol = geometry.find('\n');
  REQUIRE(eol != std::string::npos);
  CHECK(geometry.substr(eol + 1) == "");  // no problem line after the count
  std::cout << "chromium geometry: " << geometry.substr(0, geometry.find('\n')) << " measured\n";
}

}  // namespace
}  // namespace perfplan
