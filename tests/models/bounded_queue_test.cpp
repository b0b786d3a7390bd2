#include "models/bounded_queue.h"

#include <doctest/doctest.h>

#include <string>
#include <thread>
#include <vector>

namespace perfplan::models {
namespace {

TEST_CASE("items come out in order; Pop answers false once the queue is closed and empty") {
  BoundedQueue<std::string> q(8);
  q.Push("a", 3);
  q.Push("b", 3);
  q.Close();
  std::string item = "kept";
  REQUIRE(q.Pop(&item));
  CHECK(item == "a");
  REQUIRE(q.Pop(&item));
  CHECK(item == "b");
  CHECK(!q.Pop(&item));
  CHECK(item == "b");  // left as it was
}

TEST_CASE(
    "a producer waits while the queue holds its capacity, and an oversized item still passes") {
  BoundedQueue<int> q(2);
  q.Push(0, 5);  // costlier than the whole capacity: an empty queue takes it
  std::vector<int> seen;
  std::thread producer([&] {
    for (int i = 1; i <= 100; ++i) q.Push(i);
    q.Close();
  });
  int item = -1;
  while (q.Pop(&item)) seen.push_back(item);
  producer.join();
  REQUIRE(seen.size() == 101);
  for (int i = 0; i <= 100; ++i) CHECK(seen[static_cast<std::size_t>(i)] == i);
}

TEST_CASE("after Abandon what was queued is gone and a full queue's producer is released") {
  BoundedQueue<int> q(1);
  q.Push(1);
  std::thread producer([&] {
    q.Push(2);  // waits: the queue is full
    q.Push(3);  // dropped
    q.Close();
  });
  q.Abandon();
  producer.join();
  int item = 0;
  CHECK(!q.Pop(&item));
  CHECK(item == 0);
}

}  // namespace
}  // namespace perfplan::models
