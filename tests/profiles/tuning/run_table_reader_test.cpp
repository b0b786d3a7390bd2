#include "profiles/tuning/run_table_reader.h"

#include <doctest/doctest.h>

#include "tests/support/problem_lines.h"
#include "tests/support/test_support.h"

namespace perfplan::profiles {
namespace {

using testing::ProblemText;

TEST_CASE("CSV reader keeps quoted commas, doubled quotes, CRLF and line numbers") {
  const std::string text =
      "#Cores, \"Input, Fraction\",name\r\n"
      "32,0.125,\"say \"\"hi\"\"\"\r\n"
      "\r\n"
      "4,0.5,\"two\nlines\"\r\n"
      "8,1,plain";
  auto t = ParseCsvRuns(text, "runs.csv");
  REQUIRE_MESSAGE(t.ok(), ProblemText(t));
  REQUIRE(t.value.columns.size() == 3);
  CHECK(t.value.columns[0].name == "Cores");
  CHECK(t.value.columns[1].name == "Input, Fraction");
  REQUIRE(t.value.rows.size() == 3);
  CHECK(t.value.rows[0].line == 2);
  CHECK(t.value.rows[0].cells[2] == "say \"hi\"");
  CHECK(t.value.rows[1].line == 4);
  CHECK(t.value.rows[1].cells[2] == "two\nlines");
  CHECK(t.value.rows[2].line == 6);
  CHECK(t.value.rows[2].cells[0] == "8");
}

TEST_CASE("CSV reader reports wrong field counts and stray quotes with file and line") {
  auto t = ParseCsvRuns("a,b\n1,2\n1,2,3\n4,5\"x\"\n", "r.csv");
  CHECK(ProblemText(t) ==
        "r.csv:3: expected 2 fields (as in the header), saw 3\n"
        "r.csv:4: a '\"' inside an unquoted field; quote the whole field\n");
}

TEST_CASE("CSV reader reports an unterminated quote and duplicate header names") {
  CHECK(ProblemText(ParseCsvRuns("a,b\n1,\"2\n", "r.csv")) ==
        "r.csv:2: unterminated quoted field: a '\"' opens a field that never closes\n");
  CHECK(ProblemText(ParseCsvRuns("a,a\n1,2\n", "r.csv")) == "r.csv:1: a: duplicate column name\n");
}

TEST_CASE("ARFF reader reads attributes, nominal values, comments and quoted values") {
  const std::string text =
      "% a comment\n"
      "@RELATION test\n"
      "@attribute 'spark.executor.memory' string\n"
      "@attribute codec {lz4,snappy}\n"
      "@attribute performance NUMERIC\n"
      "@data\n"
      "'4g',lz4,33\n"
      "% between rows\n"
      "512m, snappy ,?\n";
  auto t = ParseArffRuns(text, "t.arff");
  REQUIRE_MESSAGE(t.ok(), ProblemText(t));
  REQUIRE(t.value.columns.size() == 3);
  CHECK(t.value.columns[0].name == "spark.executor.memory");
  CHECK(t.value.columns[0].declared == models::DeclaredType::kString);
  CHECK(t.value.columns[1].declared == models::DeclaredType::kNominal);
  CHECK(t.value.columns[1].nominal_values == std::vector<std::string>{"lz4", "snappy"});
  REQUIRE(t.value.rows.size() == 2);
  CHECK(t.value.rows[0].line == 7);
  CHECK(t.value.rows[1].line == 9);
  CHECK(t.value.rows[1].cells == std::vector<std::string>{"512m", "snappy", "?"});
}

TEST_CASE("ARFF reader rejects sparse rows, unknown types and short rows") {
  auto t = ParseArffRuns("@relation r\n@attribute a numeric\n@attribute d date\n@data\n{0 1}\n1\n",
                         "t.arff");
  CHECK(ProblemText(t) ==
        "t.arff:3: d: unsupported attribute type \"date\"; expected numeric, real, integer, "
        "string or {value,...}\n"
        "t.arff:5: sparse ARFF rows are not supported\n"
        "t.arff:6: expected 2 values (one per @attribute), saw 1\n");
}

TEST_CASE("libsvm rows become dense columns label, f1..fN with zeros for absent features") {
  auto t = ParseLibsvmRuns("+1 1:0.5 3:-1\n# comment\n-1 2:2  # tail\n", "h");
  REQUIRE_MESSAGE(t.ok(), ProblemText(t));
  REQUIRE(t.value.columns.size() == 4);
  CHECK(t.value.columns[3].name == "f3");
  CHECK(t.value.rows[0].cells == std::vector<std::string>{"+1", "0.5", "0", "-1"});
  CHECK(t.value.rows[1].line == 3);
  CHECK(t.value.rows[1].cells == std::vector<std::string>{"-1", "0", "2", "0"});
  CHECK(ProblemText(ParseLibsvmRuns("1 2:1 1:3\n", "h")) ==
        "h:1: \"1:3\": expected INDEX:VALUE with indices >= 1 and increasing\n");
}

TEST_CASE("libsvm indices must be whole numbers within the dense-table limits") {
  // Found by fuzzing (fuzz/regressions/run_tables/): "8888!8881:0." was read as index 8888 and an
  // index of 68 million made a dense table of gigabytes.
  CHECK(ProblemText(ParseLibsvmRuns("1 2;:1\n", "h")) ==
        "h:1: \"2;:1\": expected INDEX:VALUE with indices >= 1 and increasing\n");
  CHECK(ProblemText(ParseLibsvmRuns("1 1:1 68071981:2\n", "h")) ==
        "h:1: \"68071981:2\": feature index above the limit of 100000 (the table is dense in "
        "memory)\n");
  std::string many;
  for (int i = 0; i < 20; ++i) many += "1 1:1 99999:1\n";
  CHECK(ProblemText(ParseLibsvmRuns(many, "h")) ==
        "h: 20 rows x 99999 features is 2000000 cells, above the limit of 1000000 (the table is "
        "dense in memory)\n");
}

TEST_CASE("ReadRunTable dispatches on the extension and names unknown ones") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/r.CSV", "a,b\n1,2\n");
  auto t = ReadRunTable(dir + "/r.CSV");
  CHECK(t.ok());
  CHECK(t.value.rows.size() == 1);
  auto bad = ReadRunTable(dir + "/r.json");
  CHECK(ProblemText(bad) ==
        dir +
            "/r.json: unknown run-table format; expected a .csv, .arff or libsvm "
            "(.libsvm, .svm, .txt, no extension) file\n");
}

}  // namespace
}  // namespace perfplan::profiles
