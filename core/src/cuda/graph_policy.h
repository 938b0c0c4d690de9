// When a decoder step is run as a CUDA Graph. A step of our small models is a few dozen short
// kernels, so launching them costs more than running them; a graph launches the whole step at
// once. A graph is valid for one row count within one decode (the step's tables, the step
// number included, are read from device memory, so later steps replay it). Capturing costs
// about one eager step, so a row count is captured the second time it comes (greedy batches
// shrink as sentences end; a count met once is not worth it) and at most kMaxGraphs are kept,
// the least recently used dropped first.
#pragma once

#include <cstdint>
#include <vector>

namespace attend::cuda {

enum class GraphAction {
  eager,    // launch the kernels one by one
  capture,  // launch them into a new graph, then launch it
  replay,   // launch the graph kept for this row count
};

class GraphPolicy {
 public:
  static constexpr int kMaxGraphs = 8;

  // enabled false: every step eager (ATTEND_CUDA_GRAPHS=0, to measure what the graphs buy).
  explicit GraphPolicy(bool enabled = true) : enabled_(enabled) {}

  // Forgets every graph (a new decode: new buffers).
  void reset();
  // What to do for a step of `rows` rows; after `capture`, the graph is kept as returned by
  // graph_for(rows) until reset or evicted. evicted() names a count whose graph to destroy, or -1.
  GraphAction decide(int rows);
  int evicted() const { return evicted_; }

 private:
  struct Entry {
    int rows;
    bool captured;
    uint64_t last_used;
  };
  bool enabled_;
  std::vector<Entry> seen_;
  uint64_t clock_ = 0;
  int evicted_ = -1;
};

}  // namespace attend::cuda
