// Translating text (or token ids) with a loaded Model: greedy or beam search, n-best,
// opt-in attention capture, head masking and a per-step callback.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attend/model.h"

namespace attend {

enum class AttentionKind { encoder, decoder, cross };  // encoder-self, decoder-self, cross

struct HeadRef {
  AttentionKind kind = AttentionKind::cross;
  int layer = 0;
  int head = 0;
};

// One generated token, reported while decoding (greedy: the sentence's token; beam: the
// newest token of the best-scoring live hypothesis).
struct StepEvent {
  int sentence = 0;          // index in the texts (or source ids) given to the call
  int step = 0;              // 0 for the first generated token
  int token = 0;
  std::string_view piece;
  float log_prob = 0.f;
  // Cross-attention of this step when capture_attention is on, else empty:
  // [decoder_layers][heads][src_len], row-major.
  const float* cross_attention = nullptr;
  int src_len = 0;
};

inline constexpr int kRepeatGuardMaxN = 16;  // the longest n-gram TranslateOptions::max_repeats looks at

// How likely a model finds a given translation (teacher forcing: the decoder is fed bos and the
// target's tokens; each position scores the next token, eos last).
struct TargetScore {
  float log_prob = 0.f;  // Σ log p(token | source, tokens before it) over the target's tokens and eos
  int tokens = 0;        // the target's tokens + 1 (eos)
};

// The caption layer: rules over the text for the small caption models Attend trained itself on
// Multi30k (names the vocabulary spells out and quotations read around, set phrases written from
// tables, titles and names read as "someone" and written the translation's way, capitals read in
// sentence case, a source's final "?" or "!" and its opening lowercase kept: docs/caption-rules.md). A model file asks for them (`attend.text_rules: caption`, ModelInfo); a file
// that does not gets the words its search produced, its spans carried as written.
enum class CaptionRules {
  as_model_asks,  // on where the model file asks for them
  on,
  off,
};

// The text pipeline's spans (pipeline/pass_through.h: what the vocabulary lacks, numbers, web
// addresses, emoticons; with the caption rules, names and quotations too): cut out of what the
// model reads and carried into its translation as written. Off, the model reads each sentence
// whole and its words are the translation (as Marian's are). A model file may ask for none
// (`attend.pass_through: none`, ModelInfo::asks_for_pass_through).
enum class PassThroughSpans {
  as_model_asks,  // on unless the model file asks for none
  on,
  off,
};

// The rules of the search (docs/marian.md §6).
enum class SearchRules {
  // training/attend_ref/search.py's: hypotheses scored by Σ log p; each step keeps beam_size
  // hypotheses going (an eos among the beam_size best finishes one, the next best go on); it stops
  // when beam_size have finished; ranked by Σ log p / ((5 + length) / 6)^length_penalty.
  attend,
  // Marian's, as Bergamot runs it (training/attend_ref/marian_search.py): hypotheses scored by the
  // sum of their raw logits (skip-cost); the unknown token never chosen; each step keeps the best
  // as many as are still going, and those ending in eos finish, so the beam shrinks; it stops when
  // none goes on; ranked by (Σ logits - word_penalty · length) / length^length_penalty (Marian's
  // normalize), length counting eos; greedy is its beam of 1; a source of eos alone ends at once,
  // empty, with score 0.
  marian,
};

struct TranslateOptions {
  int beam_size = 1;              // 1 = greedy
  float length_penalty = 1.0f;    // GNMT alpha: score / ((5 + length) / 6)^alpha (beam only);
                                  // 1.0 beat 0.6 on Multi30k val for both shipped models
                                  // (SearchRules::marian: its normalize, score / length^alpha)
  SearchRules search_rules = SearchRules::attend;
  // The model file's lexical shortlist (an imported Marian model's lex.*.bin), where it has one:
  // each batch's tokens are chosen among the target pieces it lists for the batch's source
  // pieces, as Marian chooses them (one model on the CPU; an ensemble or a device uses all).
  bool shortlist = true;
  // With that shortlist in use, sentences are grouped into batches as Bergamot groups them
  // (bergamot-translator's BatchingPool::generateBatch, Firefox's mini-batch-words 1024), since
  // a batch's shortlist and so its translations depend on its company: shortest first (ties in
  // input order), a batch filled while (its sentences + 1) × the length of the next, eos counted,
  // is at most batch_words. batch_size then does not bound a batch, except 1: one sentence at a
  // time. 0: batch_size's groups, as for a model without a shortlist (decode/chunking.h).
  int batch_words = 1024;
  float word_penalty = 0.f;       // SearchRules::marian: Marian's word-penalty
  int max_length = 256;           // generated tokens, eos included (also capped by max_positions)
  float max_length_ratio = 3.0f;  // at most ceil(ratio · source tokens); 0 = no ratio limit
  int nbest = 1;                  // hypotheses returned per sentence (≤ beam_size)
  // Repeat guard: a token is not chosen if it would make an n-gram of the hypothesis (n = 1 to
  // kRepeatGuardMaxN pieces) occur more than max_repeats times back to back ("IMAMAMAM…"). No
  // Multi30k training reference repeats one more than 3 times (training/measure_repeats.py).
  // 0 = off.
  int max_repeats = 4;
  // Reranking by a reverse model, which translates the other way (target language to source;
  // its own tokenizers read the texts, so its vocabularies may differ): each sentence's beam_size
  // finished hypotheses are ordered by score + reverse_weight × the reverse model's
  // log p(source | hypothesis) / ((5 + its tokens) / 6)^length_penalty, and the nbest first kept.
  // Beam search only (beam_size ≥ 2). Attention and pass-through follow the reranked best.
  std::shared_ptr<const Model> reverse_model;
  float reverse_weight = 0.3f;    // chosen on Multi30k val (models/en-de/README.md)
  bool capture_attention = false; // fill Translation::attention for the best hypothesis
  std::vector<HeadRef> masked_heads;  // these heads' outputs are zeroed
  // Called after each generated token; return false to stop (throws Error(cancelled)).
  std::function<bool(const StepEvent&)> on_step;
  CaptionRules caption_rules = CaptionRules::as_model_asks;
  PassThroughSpans pass_through = PassThroughSpans::as_model_asks;
  // A multilingual model's target-language token (OPUS-MT's ">>fra<<"; "fra" stands for
  // ">>fra<<"), read as its one source piece before each sentence the text calls translate
  // (translate_prepared; not translate_ids, whose ids are the caller's), as OPUS-MT's pipeline
  // puts it before the source's pieces: the model then writes that language. It must be a piece
  // of the source vocabulary (target_token_id). A sentence whose text opens with it already
  // (Tokenizer::target_token_length) reads it once. Translation::source_ids, source_pieces and the
  // attention hold it: the model read it. Empty: none.
  std::string target_token;
};

// TranslateOptions{} with what the model file asks for in place of their defaults (ModelInfo::search).
TranslateOptions default_options(const Model& model);

// The source id of `token` (TranslateOptions::target_token): ">>xxx<<" (or "xxx", read as
// ">>xxx<<") that is a piece of the model's source vocabulary. Throws Error(invalid_argument)
// otherwise, naming a few of the vocabulary's ">>…<<" pieces or saying it has none.
int target_token_id(const Model& model, std::string_view token);

struct Hypothesis {
  // Without bos/eos: what the model generated, except, with the caption rules (CaptionRules),
  // where the source ends in "?" or "!" and a
  // finished hypothesis ends otherwise: it ends in the source's marks (caption/final_mark.h); and
  // where the source opens in lowercase: its first piece may be its lowercase twin
  // (caption/opening_case.h; on_step's events show what the model generated). The scores are of
  // what the model generated.
  std::vector<int> ids;
  std::vector<std::string> pieces;  // of ids
  // The translation: ids decoded, with the source's pass-through spans (PreparedSource) put in
  // at their aligned places.
  std::string text;
  float score = 0.f;                // what hypotheses are ranked by: greedy: Σ log p; beam: Σ log p / lp;
                                    // reranked (reverse_model): that + reverse_weight × reverse's, -inf without it
  float log_prob = 0.f;             // Σ log p over the generated tokens, eos included when generated
  int tokens = 0;                   // the generated tokens: ids.size() before a final mark, + 1 if it ended with eos
  bool ended_with_eos = true;       // false if the length limit stopped it
  // The caption layer changed what the search found: a final "?" or "!" or the opening case put
  // into its ids, or a span written otherwise than the source wrote it or in place of the model's
  // words (CaptionRules). Never without the caption rules.
  bool rewritten = false;
  // With TranslateOptions::reverse_model: its score of the source given this hypothesis' text;
  // none when it cannot read the text (empty, or longer than its positions): ranked last.
  std::optional<TargetScore> reverse;
};

// How sure the model is of a hypothesis: its mean token log-probability, log_prob / tokens (0 for
// no tokens), in (-inf, 0]. docs/confidence.md measures how it follows the translation's quality.
float confidence(const Hypothesis& hypothesis);
// Translations less confident than this are flagged (`attend translate --confidence`); chosen on
// Multi30k val (docs/confidence.md).
inline constexpr float kLowConfidence = -0.33f;

// Exact attention probabilities for the best hypothesis, every layer and head.
// Target row t is the decoding step that produced target_pieces[t] (its query is
// target_input_pieces[t]: bos, then the previous tokens).
struct AttentionMaps {
  int encoder_layers = 0, decoder_layers = 0, heads = 0, src_len = 0, tgt_len = 0;
  std::vector<std::string> source_pieces;        // [src_len], eos included
  std::vector<std::string> target_pieces;        // [tgt_len], eos included if generated
  std::vector<std::string> target_input_pieces;  // [tgt_len], starts with bos
  std::vector<float> encoder;  // [encoder_layers][heads][src_len][src_len]
  std::vector<float> decoder;  // [decoder_layers][heads][tgt_len][tgt_len] (upper triangle 0)
  std::vector<float> cross;    // [decoder_layers][heads][tgt_len][src_len]
};

enum class TranslationStatus {
  translated,
  // More than half of the sentence's non-whitespace characters are unknown to the model's
  // vocabulary (a script it cannot read, e.g. a Chinese or Arabic sentence for a Multi30k
  // model): the model is not run, source_ids and source_pieces are empty, and the one hypothesis
  // holds the text unchanged.
  unreadable_script,
  // The sentence is, whole, a greeting, a thanks, a wish or a letter's opening or closing formula
  // ("Dear Mr Smith,", "Vielen Dank!", "Cordialement,") in one of the model's two languages, which
  // Multi30k's captions never hold: it is written from a table in the other (caption/set_phrases.h),
  // the model is not run, source_ids and source_pieces are empty, and the one hypothesis holds that.
  set_phrase,
  // Nothing but punctuation is left of the sentence once the spans that pass through are set
  // aside ("12:30 - 14:00", "São", "$12.99"; docs/alignment.md): the text is kept as written (with
  // the caption rules, a title in it written the translation's way); the model is not run,
  // source_ids and source_pieces are empty, and the one hypothesis holds that.
  passed_through,
};

// Source text the vocabulary lacks (emoji, names in another script) or that the model mangles
// (numbers, names it spells out letter by letter or after a title, web addresses, emoticons:
// docs/alignment.md), carried into the translation untranslated.
struct PassThrough {
  std::string text;      // as written in the source
  int after_piece = -1;  // index in PreparedSource::ids of the piece it followed; -1: it opened the sentence
  // What the model read in its place, its pieces right after after_piece ("someone" for "Mrs.
  // Brown", "S" in its marks for a quotation); empty: nothing, the span was taken out.
  std::string stand_in;
  // It goes before the translation of the word after it, not after the one before: an opening
  // quotation mark ("„street clothes“" around the words' translation).
  bool before_next_word = false;
};

// A sentence as the model reads it (Translator::prepare).
struct PreparedSource {
  std::string text;                      // the sentence as given
  std::vector<int> ids;                  // the text without its pass-through spans, eos included
  std::vector<PassThrough> pass_through; // in source order; empty for most sentences
  TranslationStatus status = TranslationStatus::translated;  // unreadable_script, set_phrase: ids is empty
  std::string written;  // set_phrase, passed_through: the translation, written without the model
  bool caption_rules = true;  // prepared with the caption rules (CaptionRules); they place its spans too
};

struct Translation {
  std::vector<int> source_ids;  // eos included: what the model read (without pass-through spans)
  std::vector<std::string> source_pieces;
  std::vector<Hypothesis> hypotheses;  // best first
  std::optional<AttentionMaps> attention;  // an ensemble's: its attention member's
  // An ensemble's maps of every member, in member order (`attention` is one of them), when
  // attention is captured; empty for one model.
  std::vector<AttentionMaps> member_attention;
  TranslationStatus status = TranslationStatus::translated;
};

// Owns the per-request state (caches, scratch); one Translator per thread.
class Translator {
 public:
  explicit Translator(std::shared_ptr<const Model> model);
  ~Translator();
  Translator(Translator&&) noexcept;
  Translator& operator=(Translator&&) noexcept;

  Translation translate(std::string_view text, const TranslateOptions& options = {});
  // Sentences are decoded together in groups of at most batch_size (ragged, no padding work),
  // shortest first: a group holds sentences of similar length, so few steps run for one long
  // sentence while the rest of its group waits. Results come back in input order.
  std::vector<Translation> translate_batch(const std::vector<std::string>& texts,
                                           const TranslateOptions& options = {},
                                           int batch_size = 32);
  // The same on token ids (source ids must end with eos), as they are: unknown ids go to the
  // model and nothing passes through (translate_prepared does that).
  std::vector<Translation> translate_ids(const std::vector<std::vector<int>>& source_ids,
                                         const TranslateOptions& options = {},
                                         int batch_size = 32);
  // The source ids translate() decodes for `text`, eos included, at the cost of tokenizing it.
  // Throws what translate() throws for the text itself: invalid_input (invalid UTF-8, more
  // tokens than the model's positions) or empty_input (only blanks or invisible characters).
  // translate() can still refuse a sentence its search options make too large to decode.
  std::vector<int> source_ids(std::string_view text) const;
  // What translate() gives the model for `text`: source_ids() when every piece is in the
  // vocabulary and nothing passes through (numbers, spelled names, web addresses, emoticons:
  // docs/alignment.md); else the ids of the text without those spans (each widened to its
  // word; a title and name read as "someone" in the sentence's language: PassThrough::stand_in),
  // which pass through as given, or unreadable_script (TranslationStatus), or passed_through and
  // its translation when nothing but punctuation is left; or, for a set phrase of either of the
  // model's languages (caption/set_phrases.h), set_phrase and its translation. A text in
  // capitals is read in sentence case ("A WOMAN IS WALKING." as "A woman is walking."), a
  // shouted word the vocabulary knows in lowercase so ("VERY" as "very": caption/recasing.h).
  // Throws as source_ids() does.
  // Without the caption rules (CaptionRules, resolved against the model file), only the text the
  // vocabulary lacks, numbers, web addresses and emoticons pass through, as written, and nothing is
  // re-cased or written from a table. Without pass-through (PassThroughSpans, resolved likewise), the
  // model reads the sentence whole: nothing passes through, not even a sentence in a script the
  // vocabulary lacks (the caption rules' set phrases and re-casing still apply where on).
  PreparedSource prepare(std::string_view text, CaptionRules rules = CaptionRules::as_model_asks,
                         PassThroughSpans pass = PassThroughSpans::as_model_asks) const;
  // Translates prepared sentences as translate_ids does, then puts each hypothesis' pass-through
  // spans into its text where the cross-attention aligns them (pipeline/alignment.h: one
  // teacher-forced pass per hypothesis of a sentence that has any). Unreadable sentences are not
  // decoded and on_step does not hear of them. translate_batch is prepare() then this.
  std::vector<Translation> translate_prepared(const std::vector<PreparedSource>& sources,
                                              const TranslateOptions& options = {}, int batch_size = 32);
  // The attention maps of `hypothesis` (its ids teacher-forced on `source_ids`, which end with
  // eos), as translate_ids captures them for a best hypothesis (TranslateOptions::capture_attention):
  // an ensemble's attention member's, with `masked_heads` masked.
  AttentionMaps attention(const std::vector<int>& source_ids, const Hypothesis& hypothesis,
                          const std::vector<HeadRef>& masked_heads = {});
  // t.attention (and an ensemble's t.member_attention) of t's best hypothesis computed anew: for a
  // caller that changed its ids after translate_ids.
  void capture_attention(Translation& t, const std::vector<HeadRef>& masked_heads = {});
  // Teacher-forced logits: decoder fed bos + target_ids; returns [target_ids.size() + 1][V].
  std::vector<float> logits(const std::vector<int>& source_ids, const std::vector<int>& target_ids,
                            const std::vector<HeadRef>& masked_heads = {});

  // log p(target | source): `source` tokenized as translate() does (and refused as it is), `target`
  // by target_ids(); an empty target scores eos alone.
  TargetScore score(std::string_view source, std::string_view target);
  // The same on token ids (source ids end with eos; target ids without bos or eos, at most the
  // model's positions − 1 of them), consecutive pairs decoded together in groups of at most
  // batch_size.
  std::vector<TargetScore> score_ids(const std::vector<std::vector<int>>& source_ids,
                                     const std::vector<std::vector<int>>& target_ids, int batch_size = 32);
  // The target tokenizer's ids of `text`, without bos or eos. Throws invalid_input for invalid
  // UTF-8 or more tokens (with bos) than the model's positions.
  std::vector<int> target_ids(std::string_view text) const;

  const Model& model() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Splits `texts` over `threads` Translators sharing one model; results keep input order.
// options.on_step needs threads == 1 (it would be called from several threads at once).
std::vector<Translation> translate_parallel(std::shared_ptr<const Model> model,
                                            const std::vector<std::string>& texts,
                                            const TranslateOptions& options, int batch_size,
                                            int threads);
// The same on source ids (each ending with eos), e.g. from Translator::source_ids.
// The same on prepared sentences (Translator::prepare), e.g. of lines checked one by one first.
std::vector<Translation> translate_prepared_parallel(std::shared_ptr<const Model> model,
                                                     const std::vector<PreparedSource>& sources,
                                                     const TranslateOptions& options, int batch_size, int threads);
std::vector<Translation> translate_ids_parallel(std::shared_ptr<const Model> model,
                                                const std::vector<std::vector<int>>& source_ids,
                                                const TranslateOptions& options, int batch_size,
                                                int threads);

// Translator::score of each (sources[i], targets[i]) pair, batch_size pairs decoded together,
// over `threads` Translators; results keep input order. Every pair is tokenized and checked
// first: an error names the pair, counting from 1 ("pair 17 of 1000: ..."), with the code
// score() gives.
std::vector<TargetScore> score_parallel(std::shared_ptr<const Model> model, const std::vector<std::string>& sources,
                                        const std::vector<std::string>& targets, int threads, int batch_size = 32);

}  // namespace attend
