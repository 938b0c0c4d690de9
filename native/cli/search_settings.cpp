// Shared decoding options of `translate` and `eval`.
#include "search_settings.h"

#include <algorithm>

#include "attend/error.h"
#include "files.h"
#include "head_spec.h"
#include "usage_error.h"

namespace attend::cli {
namespace {

// The value of an auto|on|off flag.
template <typename Choice>
Choice auto_on_off(const std::string& flag, const std::string& given, Choice when_auto, Choice when_on, Choice when_off) {
  if (given == "auto") return when_auto;
  if (given == "on") return when_on;
  if (given == "off") return when_off;
  throw UsageError(flag + " wants auto, on or off, got '" + given + "'");
}

}  // namespace

void SearchSettings::add_to(OptionParser& parser) {
  parser.add_int("--beam", "N", "beam size; 1 is greedy search; default: the model file's (an imported OPUS-MT model's "
                 "decoder.yml beam-size), else 1", &options.beam_size, 1, kMaxBeamSize);
  parser.add_float("--alpha", "A",
                   "length penalty ((5 + length) / 6)^A of beam search (--search marian: length^A); default: "
                   "the model file's, else 1",
                   &options.length_penalty, 0.f, 10.f);
  parser.add_string("--search", "auto|attend|marian",
                    "the search's rules: attend's (Σ log p, the beam kept full), or Marian's as Bergamot runs "
                    "them (Σ raw logits, the unknown token never chosen, the beam shrinking as hypotheses end, "
                    "(score - W x length) / length^A); auto (default): the model file's (imported Marian models "
                    "ask for marian, max length ratio 2 and no repeat guard), else attend",
                    &search_rules);
  parser.add_flag("--no-shortlist",
                  "choose every token among the whole vocabulary, not the model file's lexical shortlist (an "
                  "imported Marian model's lex.*.bin)",
                  &no_shortlist);
  parser.add_float("--word-penalty", "W", "--search marian: Marian's word penalty (default 0)", &options.word_penalty,
                   -1000.f, 1000.f);
  parser.add_int("--max-len", "N", "at most N generated tokens per sentence, eos included",
                 &options.max_length, 1, 1 << 20);
  parser.add_float("--max-len-ratio", "R",
                   "at most ceil(R x source tokens) generated tokens; 0 = no ratio limit",
                   &options.max_length_ratio, 0.f, 1000.f);
  parser.add_int("--max-repeats", "N",
                 "repeat guard: no n-gram of 1 to " + std::to_string(kRepeatGuardMaxN) +
                     " pieces is generated more than N times back to back; 0 = off",
                 &options.max_repeats, 0, 1 << 16);
  parser.add_int("--batch", "N", "sentences decoded together per thread", &batch, 1, 1 << 16);
  parser.add_int("--batch-words", "N",
                 "with a lexical shortlist in use: sentences batched as Bergamot batches them, a batch filled "
                 "while (its sentences + 1) x the next one's tokens <= N (default 1024, Firefox's), not by --batch "
                 "(but --batch 1: one at a time); 0: by --batch",
                 &options.batch_words, 0, 1 << 30);
  parser.add_int("--threads", "N", "translation threads (each with its own translator)", &threads,
                 1, 256);
  parser.add_list("--mask-head", "KIND:LAYER:HEAD",
                  "zero this head's output; KIND is encoder, decoder or cross", &mask_heads);
  model.add_to(parser);
  parser.add_flag("--no-split",
                  "translate each line whole; by default a line is cut into sentences (ICU's rules, "
                  "abbreviations kept), each translated on its own and put back on one line",
                  &no_split);
  parser.add_string("--rerank-with", "FILE",
                    "rerank each sentence's beam by this model of the other direction (target to source): "
                    "score + W x its log p(source | hypothesis) / length penalty; needs --beam 2 or more",
                    &rerank_with);
  parser.add_float("--rerank-weight", "W", "the reverse model's weight W in --rerank-with's score",
                   &options.reverse_weight, 0.f, 100.f);
  parser.add_string("--caption-rules", "auto|on|off",
                    "the caption layer's rules over the text (set phrases, numbers and dates written the "
                    "translation's way, a final ? or ! kept, ...): auto (default) where the model file asks for them",
                    &caption_rules);
  parser.add_string("--pass-through", "auto|on|off",
                    "carry what the vocabulary lacks, numbers, web addresses and emoticons through as written, "
                    "the model reading the sentence without them: auto (default) unless the model file asks for "
                    "none (as imported Marian models do: their words are the translation)",
                    &pass_through);
  parser.add_string("--target-token", ">>xxx<<",
                    "a multilingual OPUS-MT model's target-language token (as '>>fra<<', or 'fra'), read before each "
                    "sentence as the one source piece it is, as OPUS-MT puts it there: the language to translate into. "
                    "It must be one of the model's source pieces (the error lists some)",
                    &options.target_token);
  names_ = {"--beam",     "--alpha",     "--max-len",          "--max-len-ratio", "--max-repeats",  "--batch",
            "--threads",  "--mask-head", "--int8-activations", "--no-split",      "--rerank-with", "--rerank-weight",
            "--caption-rules", "--pass-through", "--search", "--word-penalty", "--no-shortlist",
            "--target-token"};
}

void ModelFlags::add_to(OptionParser& parser) {
  parser.add_flag("--int8-activations",
                  "int8 model files: quantize the activations to int8 too (faster; CPU only)",
                  &int8_activations);
  parser.add_string("--device", "DEVICE",
                    "cpu (default) or cuda: the first NVIDIA GPU, in a build with the CUDA backend (docs/cuda.md)",
                    &device);
  parser.add_string("--compute", "TYPE", "with --device cuda: what the GEMMs read, f32 (default), f16 or bf16 (docs/cuda.md)",
                    &compute);
}

ModelOptions ModelFlags::options() const {
  ModelOptions o;
  o.int8_activations = int8_activations ? Int8Activations::on : Int8Activations::off;
  if (device == "cuda") {
    o.device = Device::cuda;
  } else if (device != "cpu") {
    throw UsageError("--device wants cpu or cuda, got '" + device + "'");
  }
  if (compute == "f16") {
    o.compute = ComputeType::f16;
  } else if (compute == "bf16") {
    o.compute = ComputeType::bf16;
  } else if (compute != "f32") {
    throw UsageError("--compute wants f32, f16 or bf16, got '" + compute + "'");
  }
  if (compute != "f32" && o.device == Device::cpu) throw UsageError("--compute " + compute + " needs --device cuda");
  return o;
}

std::string SearchSettings::first_given(const OptionParser& parser) const {
  for (const std::string& name : names_) {
    if (parser.given(name)) return name;
  }
  return "";
}

void SearchSettings::finish(const OptionParser& parser) {
  given_.clear();
  for (const std::string& name : names_) {
    if (parser.given(name)) given_.push_back(name);
  }
  if (search_rules != "auto" && search_rules != "attend" && search_rules != "marian") {
    throw UsageError("--search wants auto, attend or marian, got '" + search_rules + "'");
  }
  options.shortlist = !no_shortlist;
  if (search_rules != "auto") options.search_rules = search_rules == "marian" ? SearchRules::marian : SearchRules::attend;
  options.masked_heads.clear();
  for (const std::string& spec : mask_heads) options.masked_heads.push_back(parse_head_spec(spec));
  options.caption_rules = auto_on_off("--caption-rules", caption_rules, CaptionRules::as_model_asks, CaptionRules::on,
                                      CaptionRules::off);
  options.pass_through = auto_on_off("--pass-through", pass_through, PassThroughSpans::as_model_asks, PassThroughSpans::on,
                                     PassThroughSpans::off);
  if (parser.given("--rerank-weight") && rerank_with.empty()) throw UsageError("--rerank-weight goes with --rerank-with FILE");
}

void SearchSettings::use_model(const Model& model) {
  const TranslateOptions asked = default_options(model);
  const auto named = [&](const char* flag) { return std::find(given_.begin(), given_.end(), flag) != given_.end(); };
  // The file's beam where it asks for one (an OPUS-MT decoder.yml's); else the beam stays as set
  // (the library's 1 from the command line, or a caller's own SearchSettings).
  if (!named("--beam") && asked.beam_size != TranslateOptions{}.beam_size) options.beam_size = asked.beam_size;
  const std::string beam = "--beam " + std::to_string(options.beam_size) + (named("--beam") ? "" : " (the model file's)");
  if (!rerank_with.empty() && options.beam_size < 2) {
    throw UsageError("--rerank-with reranks a beam, and " + beam + " is greedy search: give --beam 2 or more");
  }
  if (options.nbest > options.beam_size) {
    throw UsageError("--nbest " + std::to_string(options.nbest) + " exceeds " + beam +
                     ": the n best come from the beam (see 'attend translate --help')");
  }
  if (!named("--search")) options.search_rules = asked.search_rules;
  if (!named("--alpha")) options.length_penalty = asked.length_penalty;
  if (!named("--word-penalty")) options.word_penalty = asked.word_penalty;
  if (!named("--max-len-ratio")) options.max_length_ratio = asked.max_length_ratio;
  if (!named("--max-repeats")) options.max_repeats = asked.max_repeats;
  check_heads_exist(options.masked_heads, attention_config(model));
  if (!options.target_token.empty()) {
    try {
      target_token_id(model, options.target_token);
    } catch (const Error& e) {
      throw UsageError(std::string("--target-token: ") + e.what());
    }
  }
  if (!rerank_with.empty()) options.reverse_model = load_model(rerank_with, this->model.options());
}

}  // namespace attend::cli
