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

// Checks that `out` holds the `n` records added (seq 0..n-1), each once, in key order.
void CheckSortedOnce(const std::vector<Row>& out, std::size_t n) {
  REQUIRE(out.size() == n);
  CHECK(std::is_sorted(out.begin(), out.end(), kByKey));
  std::vector<std::uint32_t> seqs;
  for (const Row& r : out) seqs.push_back(r.seq);
  std::sort(seqs.begin(), seqs.end());
  for (std::uint32_t i = 0; i < seqs.size(); ++i) REQUIRE(seqs[i] == i);
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
    CheckSortedOnce(out, rows.size());
  }
}

// Scratch memory that counts the bytes appended, to see each pass over the records.
class CountingScratch : public MemoryScratch {
 public:
  explicit CountingScratch(std::uint64_t* appended) : appended_(appended) {}
  Status Append(const void* data, std::size_t bytes) override {
    *appended_ += bytes;
    return MemoryScratch::Append(data, bytes);
  }

 private:
  std::uint64_t* appended_;
};

TEST_CASE("more runs than the fan-in are merged a few at a time, oldest first, then read") {
  // (runs written, fan-in) → runs the merges write: each merge turns fan-in runs into one, so
  // ceil((runs - fan-in) / (fan-in - 1)) merges leave fan-in runs (or fewer) for Next(). A
  // fan-in below 2 counts as 2.
  struct Case {
    std::size_t rows, run, fan_in, merged, final_fan_in;
  };
  for (const Case& k :
       {Case{20000, 1000, 16, 1, 5}, Case{20000, 1000, 20, 0, 20}, Case{20000, 1000, 2, 18, 2},
        Case{20000, 7, 3, 1428, 2}, Case{20000, 1, 16, 1333, 5}, Case{5, 1, 1, 3, 2}}) {
    CAPTURE(k.rows);
    CAPTURE(k.run);
    CAPTURE(k.fan_in);
    std::uint64_t appended = 0;
    Sorter sorter(
        k.run, kByKey,
        [&appended]() -> Result<std::unique_ptr<ScratchFile>> {
          return std::unique_ptr<ScratchFile>(std::make_unique<CountingScratch>(&appended));
        },
        k.fan_in);
    const std::vector<Row> rows = Rows(k.rows);
    for (const Row& r : rows) REQUIRE(sorter.Add(r).ok());
    REQUIRE(sorter.Finish().ok());
    CHECK(sorter.runs_written() == (k.rows + k.run - 1) / k.run);
    CHECK(sorter.merged_runs_written() == k.merged);
    CHECK(sorter.final_fan_in() == k.final_fan_in);
    if (k.merged == 0) CHECK(appended == k.rows * sizeof(Row));  // written once
    if (k.merged > 0) CHECK(appended > k.rows * sizeof(Row));    // and again by the merges
    const std::vector<Row> out = Drain(sorter);
    CHECK(sorter.status().ok());
    CheckSortedOnce(out, rows.size());
  }
}

TEST_CASE("a read error while merging runs down to the fan-in fails the sort") {
  Sorter sorter(
      1, kByKey,
      []() -> Result<std::unique_ptr<ScratchFile>> {
        return std::unique_ptr<ScratchFile>(std::make_unique<UnreadableScratch>());
      },
      2);
  for (const Row& r : Rows(5)) REQUIRE(sorter.Add(r).ok());
  CHECK(sorter.Finish().message() == "scratch: disk went away");
  CHECK(sorter.Next() == nullptr);
  CHECK(sorter.status().message() == "scratch: disk went away");
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
