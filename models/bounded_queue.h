// The queue between a parallel ingest's parser threads and its one writer (Spark's task-row
// batches, profiles/spark/spark_ingest.cpp; HDFS's recorded sink calls, profiles/hdfs/
// hdfs_store.cpp): bounded by the summed cost of what it holds, closed by the producer when done,
// abandoned by the consumer when it gives up.
//
// Push waits while the queue holds `capacity` or more (an item is always taken into an empty
// queue, so one item costlier than the whole capacity still passes). Pop waits for an item and
// answers false once the queue is closed and empty. After Abandon, what was queued is dropped and
// every later Push returns at once without queueing. Thread-safe: any number of producers and
// consumers, though the ingests use one of each.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <utility>

namespace perfplan::models {

template <typename T>
class BoundedQueue {
 public:
  explicit BoundedQueue(std::size_t capacity) : capacity_(capacity) {}

  // Producer: queues `item` of `cost`, waiting while the queue is full; drops it once abandoned.
  void Push(T item, std::size_t cost = 1) {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return abandoned_ || items_.empty() || cost_ < capacity_; });
    if (abandoned_) return;
    cost_ += cost;
    items_.emplace_back(std::move(item), cost);
    cv_.notify_all();
  }
  // Producer: no more items.
  void Close() {
    std::lock_guard lock(mu_);
    closed_ = true;
    cv_.notify_all();
  }
  // Consumer: the oldest item into `*item`, waiting for one; false once closed and empty (then
  // `*item` is left as it was).
  bool Pop(T* item) {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return closed_ || !items_.empty(); });
    if (items_.empty()) return false;
    *item = std::move(items_.front().first);
    cost_ -= items_.front().second;
    items_.pop_front();
    cv_.notify_all();
    return true;
  }
  // Consumer: gives up; what is queued goes, and Push drops from now on.
  void Abandon() {
    std::lock_guard lock(mu_);
    abandoned_ = true;
    items_.clear();
    cost_ = 0;
    cv_.notify_all();
  }

 private:
  const std::size_t capacity_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::pair<T, std::size_t>> items_;  // each with its cost
  std::size_t cost_ = 0;
  bool closed_ = false, abandoned_ = false;
};

}  // namespace perfplan::models
