// Specification of planner/output/export.h: RFC 4180 CSV that a spreadsheet and Python's csv module read
// back as written, and the versioned JSON table.
#include "planner/output/export.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "tests/support/test_support.h"

namespace perfplan::planner {
namespace {

ExportTable Tricky() {
  ExportTable t;
  t.what = "test";
  t.columns = {"name", "runtime_seconds", "count", "note"};
  t.rows = {
      {std::string("plain"), 1.5, 3LL, std::string("")},
      {std::string("comma, and \"quotes\""), 0.1, -2LL, std::string("two\r\nlines")},
      {std::string("=HYPERLINK(\"x\")"), 1e-300, 0LL, ExportCell{}},
      {std::string("-negative text"), 123456789.125, 9007199254740993LL, std::string("@sum")},
  };
  return t;
}

TEST_CASE("CSV follows RFC 4180 and defuses formulas") {
  CHECK(ToCsv(Tricky()) ==
        "name,runtime_seconds,count,note\r\n"
        "plain,1.5,3,\r\n"
        "\"comma, and \"\"quotes\"\"\",0.1,-2,\"two\r\nlines\"\r\n"
        "\"'=HYPERLINK(\"\"x\"\")\",1e-300,0,\r\n"
        "'-negative text,123456789.125,9007199254740993,'@sum\r\n");
}

TEST_CASE("Python's csv module reads the CSV back cell for cell") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/t.csv", ToCsv(Tricky()));
  // /usr/bin/python3 is Debian's interpreter (the pyenv one on PATH may lack nothing here, but
  // TOOLCHAIN.md says to use Debian's).
  const std::string script =
      "import csv, json, sys\n"
      "rows = list(csv.reader(open(sys.argv[1], newline=''), strict=True))\n"
      "json.dump(rows, open(sys.argv[2], 'w'))\n";
  testing::WriteFile(dir + "/read.py", script);
  const std::string command =
      "/usr/bin/python3 " + dir + "/read.py " + dir + "/t.csv " + dir + "/rows.json";
  REQUIRE(std::system(command.c_str()) == 0);
  const nlohmann::json rows = nlohmann::json::parse(testing::ReadFile(dir + "/rows.json"));
  REQUIRE(rows.size() == 5);
  CHECK(rows[0] == nlohmann::json({"name", "runtime_seconds", "count", "note"}));
  CHECK(rows[2][0] == "comma, and \"quotes\"");
  CHECK(rows[2][3] == "two\r\nlines");
  CHECK(std::stod(rows[2][1].get<std::string>()) == 0.1);  // round-trips exactly
  CHECK(rows[3][0] == "'=HYPERLINK(\"x\")");
  CHECK(std::stod(rows[4][1].get<std::string>()) == 123456789.125);
  for (const auto& row : rows) CHECK(row.size() == 4);
}

TEST_CASE("LibreOffice opens the CSV as a spreadsheet, where it is installed") {
  if (std::system("command -v soffice >/dev/null 2>&1") != 0) {
    MESSAGE("skipped: LibreOffice (soffice) is not installed; the csv-module test covers reading");
    return;
  }
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/t.csv", ToCsv(Tricky()));
  const std::string command = "cd " + dir + " && HOME=" + dir +
                              " soffice --headless --convert-to xlsx t.csv >/dev/null 2>&1";
  CHECK(std::system(command.c_str()) == 0);
  std::FILE* f = std::fopen((dir + "/t.xlsx").c_str(), "rb");
  CHECK(f != nullptr);
  if (f) std::fclose(f);
}

TEST_CASE("the JSON table carries its schema version, columns and typed rows") {
  const nlohmann::json j = nlohmann::json::parse(ToJson(Tricky()));
  CHECK(j["schema_version"] == kExportSchemaVersion);
  CHECK(j["what"] == "test");
  CHECK(j["columns"].size() == 4);
  REQUIRE(j["rows"].size() == 4);
  CHECK(j["rows"][0]["runtime_seconds"] == 1.5);
  CHECK(j["rows"][0]["count"] == 3);
  CHECK(j["rows"][2]["note"].is_null());
  CHECK(j["rows"][2]["name"] == "=HYPERLINK(\"x\")");  // JSON is not a spreadsheet: unchanged
}

}  // namespace
}  // namespace perfplan::planner
