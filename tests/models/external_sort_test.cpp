#include "models/external_sort.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace perfplan::models {
namespace {

struct Row {
  std::uint32_t key;
  std::uint32_t seq;  // the order of Add, to tell equal keys apart
};
constexpr auto kByKey = [](const Row& x, const Row& y) { return x.key < y.key; };
using Sorter = ExternalSorter<Row, decltype(kByKey)>;

std::vector<Row> Drain(Sorter& sorter) {
  std::vector<Row> out;
  while (const Row* r = sorter.Next()) out.push_back(*r);
  return out;
}

// Seeded keys with many repeats (a linear congruential generator: same keys on every run).
std::vector<Row> Rows(std::size_t n) {
  std::vector<Row> rows;
  std::uint64_t x = 12345;
  for (std::uint32_t i = 0; i < n; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    rows.push_back({static_cast<std::uint32_t>(x >> 40) % 97, i});
  }
  return rows;
}

// A scratch factory that must not be called.
Result<std::unique_ptr<ScratchFile>> NoScratch() { return Status::Failed("no scratch wanted"); }

// Scratch memory whose reads fail.
class UnreadableScratch : public MemoryScratch {
 public:
  Status Read(std::uint64_t, void*, std::size_t) override {
    return Status::Failed("scratch: disk went away");
  }
};

TEST_CASE("records that fit in one run are sorted in memory, without scratch storage") {
  Sorter sorter(1000, kByKey, NoScratch);
  for (const Row& r : Rows(500)) REQUIRE(sorter.Add(r).ok());
  REQUIRE(sorter.Finish().ok());
  const std::vector<Row> out = Drain(sorter);
  CHECK(sorter.status().ok());
  CHECK(sorter.runs_written() == 0);
  CHECK(out.size() == 500);
  CHECK(std::is_sorted(out.begin(), out.end(), kByKey));
}

TEST_CASE("more records than a run are written as sorted runs and merged in order") {
  for (const std::size_t run : {std::size_t{1}, std::size_t{7}, std::size_t{4096}}) {
    CAPTURE(run);
    std::size_t scratches = 0;
    Sorter sorter(run, kByKey, [&scratches]() -> Result<std::unique_ptr<ScratchFile>> {
      ++scratches;
      return std::unique_ptr<ScratchFile>(std::make_unique<MemoryScratch>());
    });
    // More than one read buffer per run when runs are 4096 records.
    const std::vector<Row> rows = Rows(20000);
    for (const Row& r : rows) REQUIRE(sorter.Add(r).ok());
    REQUIRE(sorter.Finish().ok());
    const std::vector<Row> out = Drain(sorter);
    CHECK(sorter.status().ok());
    CHECK(sorter.runs_written() == (rows.size() + run - 1) / run);
    CHECK(scratches == 1);
    REQUIRE(out.size() == rows.size());
    CHECK(std::is_sorted(out.begin(), out.end(), kByKey));
    std::vector<std::uint32_t> seqs;  // every record once
    for (const Row& r : out) seqs.push_back(r.seq);
    std::sort(seqs.begin(), seqs.end());
    for (std::uint32_t i = 0; i < seqs.size(); ++i) REQUIRE(seqs[i] == i);
  }
}

TEST_CASE("scratch storage that cannot be made or read fails the sort with its message") {
  Sorter unmade(2, kByKey, NoScratch);
  CHECK(unmade.Add({1, 0}).ok());
  CHECK(unmade.Add({2, 1}).message() == "no scratch wanted");
  CHECK(unmade.Add({3, 2}).message() == "no scratch wanted");  // stays failed
  CHECK(unmade.Finish().message() == "no scratch wanted");
  CHECK(unmade.Next() == nullptr);

  Sorter unreadable(2, kByKey, []() -> Result<std::unique_ptr<ScratchFile>> {
    return std::unique_ptr<ScratchFile>(std::make_unique<UnreadableScratch>());
  });
  for (const Row& r : Rows(5)) REQUIRE(unreadable.Add(r).ok());
  CHECK(unreadable.Finish().message() == "scratch: disk went away");
  CHECK(unreadable.Next() == nullptr);
}

TEST_CASE("scratch memory refuses a read past its end") {
  MemoryScratch scratch;
  const char bytes[4] = {'a', 'b', 'c', 'd'};
  REQUIRE(scratch.Append(bytes, 4).ok());
  char out[2] = {};
  REQUIRE(scratch.Read(2, out, 2).ok());
  CHECK(out[0] == 'c');
  CHECK(scratch.Read(3, out, 2).message() ==
        "scratch memory: read of 2 bytes at 3 past its end (4 bytes)");
}

}  // namespace
}  // namespace perfplan::models
