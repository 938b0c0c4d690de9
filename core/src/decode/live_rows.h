// The rows of a batched decode that are still going, one per sentence, and the token each is fed
// at the next step. A row whose sentence has ended is dropped between steps; the others' cache
// slots stay where they are (row i of a step uses slot sentence(i)).
#pragma once

#include <vector>

#include "model/decoder.h"

namespace attend {

class LiveRows {
 public:
  LiveRows(int sentences, int first_token) : sentences_(sentences), tokens_(sentences, first_token) {
    for (int s = 0; s < sentences; ++s) sentences_[s] = s;
  }

  bool empty() const { return sentences_.empty(); }
  int size() const { return static_cast<int>(sentences_.size()); }
  int sentence(int row) const { return sentences_[row]; }
  StepInput step_input(int step) const {
    return StepInput{tokens_.data(), sentences_.data(), sentences_.data(), size(), step};
  }

  // Between steps: call keep() for the rows that go on, in row order, then end_step().
  void keep(int sentence, int next_token) {
    sentences_[kept_] = sentence;
    tokens_[kept_] = next_token;
    ++kept_;
  }
  void end_step() {
    sentences_.resize(kept_);
    tokens_.resize(kept_);
    kept_ = 0;
  }

 private:
  std::vector<int> sentences_;  // [rows] the sentence (= cache slot) of each row
  std::vector<int> tokens_;     // [rows] the token each row is fed next
  int kept_ = 0;
};

}  // namespace attend
