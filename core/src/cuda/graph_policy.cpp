#include "cuda/graph_policy.h"

#include <algorithm>

namespace attend::cuda {

void GraphPolicy::reset() {
  seen_.clear();
  clock_ = 0;
  evicted_ = -1;
}

GraphAction GraphPolicy::decide(int rows) {
  evicted_ = -1;
  if (!enabled_) return GraphAction::eager;
  ++clock_;
  auto it = std::find_if(seen_.begin(), seen_.end(), [rows](const Entry& e) { return e.rows == rows; });
  if (it == seen_.end()) {
    seen_.push_back(Entry{rows, false, clock_});
    return GraphAction::eager;
  }
  it->last_used = clock_;
  if (it->captured) return GraphAction::replay;
  const int held = static_cast<int>(std::count_if(seen_.begin(), seen_.end(), [](const Entry& e) { return e.captured; }));
  if (held == kMaxGraphs) {
    auto oldest = seen_.end();
    for (auto e = seen_.begin(); e != seen_.end(); ++e) {
      if (e->captured && (oldest == seen_.end() || e->last_used < oldest->last_used)) oldest = e;
    }
    evicted_ = oldest->rows;
    oldest->captured = false;
  }
  it->captured = true;
  return GraphAction::capture;
}

}  // namespace attend::cuda
