// Model::ensemble: several loaded models checked to read and write the same vocabularies, held
// as one Model whose Translators decode them together (decode/ensemble_step_scorer.h).
#include <cmath>
#include <string>

#include "attend/error.h"
#include "model/model_impl.h"

namespace attend {
namespace {

[[noreturn]] void refuse(const std::string& message) { throw Error(ErrorCode::invalid_argument, message); }

std::string member_name(size_t m) { return "model " + std::to_string(m + 1); }

// Every id the same piece: the ids a member is fed and the ids it scores mean what they mean
// to the first member.
void check_same_vocabulary(const Tokenizer& first, const Tokenizer& other, const char* side, size_t m) {
  if (first.vocab_size() != other.vocab_size()) {
    refuse(member_name(m) + "'s " + side + " vocabulary has " + std::to_string(other.vocab_size()) +
           " pieces, model 1's " + std::to_string(first.vocab_size()) + ": an ensemble's members need the same vocabulary");
  }
  for (int id = 0; id < first.vocab_size(); ++id) {
    const std::string a = first.id_to_piece(id), b = other.id_to_piece(id);
    if (a != b) {
      refuse(member_name(m) + "'s " + side + " vocabulary differs from model 1's: id " + std::to_string(id) + " is '" +
             b + "' there, '" + a + "' in model 1 (an ensemble's members need the same vocabulary)");
    }
  }
}

void check_member(const Model& first, const Model& other, size_t m) {
  const ModelConfig& a = first.config();
  const ModelConfig& b = other.config();
  if (other.impl().device || first.impl().device) refuse("ensembles run on the CPU only: load the members on the CPU");
  if (a.tgt_vocab_size != b.tgt_vocab_size || a.src_vocab_size != b.src_vocab_size) {
    refuse(member_name(m) + " has vocabularies of " + std::to_string(b.src_vocab_size) + " / " +
           std::to_string(b.tgt_vocab_size) + " pieces, model 1 " + std::to_string(a.src_vocab_size) + " / " +
           std::to_string(a.tgt_vocab_size) + ": an ensemble's members need the same vocabulary");
  }
  if (a.bos_id != b.bos_id || a.eos_id != b.eos_id || a.pad_id != b.pad_id || a.unk_id != b.unk_id) {
    refuse(member_name(m) + "'s special ids differ from model 1's");
  }
  if (b.max_positions < a.max_positions) {  // model 1's config() bounds sources and outputs
    refuse(member_name(m) + " takes " + std::to_string(b.max_positions) + " positions, fewer than model 1's " +
           std::to_string(a.max_positions) + ": give the model with the fewest positions first");
  }
  check_same_vocabulary(*first.impl().tgt_tokenizer, *other.impl().tgt_tokenizer, "target", m);
  check_same_vocabulary(*first.impl().src_tokenizer, *other.impl().src_tokenizer, "source", m);
}

// The members that name their languages (attend.languages) name the same; a file that names
// none goes with any.
void check_same_languages(const std::vector<std::shared_ptr<const Model>>& members) {
  const Model::Impl* named = nullptr;  // the first member that names its languages
  size_t first = 0;
  for (size_t m = 0; m < members.size(); ++m) {
    const Model::Impl& impl = members[m]->impl();
    if (impl.source_language.empty()) continue;
    if (!named) {
      named = &impl;
      first = m;
    } else if (impl.source_language != named->source_language || impl.target_language != named->target_language) {
      refuse(member_name(m) + " translates " + impl.source_language + "-" + impl.target_language + ", " +
             member_name(first) + " " + named->source_language + "-" + named->target_language +
             ": an ensemble's members translate the same languages");
    }
  }
}

}  // namespace

Model::Model(std::vector<std::shared_ptr<const Model>> members, std::vector<float> weights, int attention_member)
    : members_(std::move(members)), weights_(std::move(weights)), attention_member_(attention_member) {}

std::shared_ptr<const Model> Model::ensemble(std::vector<std::shared_ptr<const Model>> members,
                                             const EnsembleOptions& options) {
  if (members.empty()) refuse("an ensemble needs at least one model");
  for (size_t m = 0; m < members.size(); ++m) {
    if (!members[m]) refuse(member_name(m) + " is null");
    if (!members[m]->members().empty()) refuse(member_name(m) + " is an ensemble itself: give its members instead");
  }
  check_same_languages(members);
  for (size_t m = 1; m < members.size(); ++m) check_member(*members[0], *members[m], m);
  std::vector<float> weights = options.weights;
  if (weights.empty()) weights.assign(members.size(), 1.f);
  if (weights.size() != members.size()) {
    refuse(std::to_string(weights.size()) + " weights for " + std::to_string(members.size()) + " models");
  }
  double total = 0;
  for (size_t m = 0; m < weights.size(); ++m) {
    if (!std::isfinite(weights[m]) || weights[m] <= 0) {
      refuse(member_name(m) + "'s weight must be a finite number > 0, got " + std::to_string(weights[m]));
    }
    total += weights[m];
  }
  for (float& w : weights) w = static_cast<float>(w / total);
  if (options.attention_member < 0 || options.attention_member >= static_cast<int>(members.size())) {
    refuse("attention member must be in [0, " + std::to_string(members.size()) + "), got " +
           std::to_string(options.attention_member));
  }
  return std::shared_ptr<const Model>(new Model(std::move(members), std::move(weights), options.attention_member));
}

}  // namespace attend
