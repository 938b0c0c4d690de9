// The C API of the WebAssembly module (bindings.cpp): wasm/attend.mjs calls it, and so, natively,
// does its fuzz target (tests/fuzz). Every call that can fail takes a status and leaves its
// outcome there (code "" on success, else an attend::ErrorCode name, or "internal");
// nothing throws across it. The caller owns every handle it gets and frees it.
#pragma once

#include <cstdint>
#include <vector>

struct AttendStatus;
struct AttendSession;  // a loaded model and the Translator that owns its per-request state
struct AttendResult;   // a JSON document, and for translations the attention buffers it describes
using AttendBytes = std::vector<uint8_t>;

// on_step(sentence, step, token, piece, piece_size, log_prob, cross, src_len); returning 0 stops
// the translation (code "cancelled"). cross is null or [decoder_layers][heads][src_len].
using AttendStepCallback = int (*)(int, int, int, const char*, int, float, const float*, int);

// two_letter(code, out): the ISO 639-1 code of an ISO 639 code a README states ("fra": "fr"), written
// NUL-terminated into out[4] (at most three letters; "" or the code itself where it has none): the
// host's, as the CLI asks ICU (wasm/attend.mjs: Intl.getCanonicalLocales).
using AttendTwoLetter = void (*)(const char*, char*);

extern "C" {

AttendStatus* attend_status_new();
void attend_status_free(AttendStatus* status);
const char* attend_status_code(const AttendStatus* status);
const char* attend_status_message(const AttendStatus* status);

// A byte buffer the caller fills (the model file), handed over to attend_session_load
// without a second copy inside the module.
AttendBytes* attend_bytes_new(uint32_t size, AttendStatus* status);
uint8_t* attend_bytes_data(AttendBytes* bytes);
void attend_bytes_free(AttendBytes* bytes);

uint32_t attend_bytes_size(const AttendBytes* bytes);

// Which files of a Marian model folder `attend import` reads (attend::choose_marian_files, the
// CLI's rules): `entries_json` is [{"path", "folder"}, ...], folder "" for a file the person named
// by itself. JSON: {model, sourceVocab, targetVocab, shortlist, sourcePieces, targetPieces, decoderYml,
// licenses: [...], languages}, the paths chosen ("" for none; the pieces and decoder.yml are OPUS-MT's)
// and the pair the names give (attend::marian_languages_from_names).
AttendResult* attend_marian_files(const char* entries_json, AttendStatus* status);

// `attend import` in memory (attend::import_marian): `request_json` is {model, sourceVocab,
// targetVocab, shortlist, sourcePieces, targetPieces, decoderYml, licenses: [...], languages,
// multilingual}, the names as attend_marian_files gives them (licences may be []), and files[0, count)
// their bytes (gzip already inflated) in that order: model, source vocabulary, then each of the others
// where named, then each licence. languages "" (or absent): the pair the READMEs state, as `attend
// import` reads it (attend::marian_languages_from_readmes, each code by two_letter); a README stating
// several is refused asking for the languages, or with multilingual "unnamed" gives none. Returns the
// Attend model file's bytes, and in *summary JSON {license, languages}: the licence text the file
// keeps (attend::marian_license_text) and the pair it names ("" for none). The files stay the caller's to free.
AttendBytes* attend_import_marian(const char* request_json, AttendBytes* const* files, int count, AttendTwoLetter two_letter,
                                  AttendResult** summary, AttendStatus* status);

// Takes ownership of `bytes` (freed whether or not the load succeeds). int8_activations: 0 off,
// 1 on, 2 if_int8 (attend::Int8Activations).
AttendSession* attend_session_load(AttendBytes* bytes, int int8_activations, AttendStatus* status);
void attend_session_free(AttendSession* session);
// A new session decoding the models of sessions[0, count) together (attend::Model::ensemble);
// weights: null (equal) or [count]; attention_member counts from 0. The given sessions stay the
// caller's to free (their models live on in the new one).
AttendSession* attend_session_ensemble(AttendSession* const* sessions, int count, const float* weights,
                                       int attention_member, AttendStatus* status);
// From now on `session` reranks each beam by the model of `reverse` (attend::TranslateOptions::
// reverse_model: the model of the other direction), or by none when `reverse` is null, at the
// core's default weight until attend_session_set_reverse_weight gives another. `reverse` stays
// the caller's to free (its model lives on in `session`). Returns 1.
int attend_session_rerank_with(AttendSession* session, const AttendSession* reverse, AttendStatus* status);
// The reverse model's weight in `session`'s reranked scores (reverse_weight; a translation's
// options may give another). Returns 0 and leaves an error in `status` for a weight that is not a
// finite number ≥ 0.
int attend_session_set_reverse_weight(AttendSession* session, float weight, AttendStatus* status);
// The model's config and file facts as JSON (with the reverse model's as "reverse", or null).
AttendResult* attend_session_info(const AttendSession* session, AttendStatus* status);

// Translates `count` texts, text i being bytes [ends[i-1], ends[i]) of `texts` (UTF-8, not
// null-terminated). `options_json` holds the options as attend.mjs names them (beam, alpha,
// maxLength, maxLengthRatio, nbest, attention, maskedHeads, rerank, reverseWeight); `on_step` may be 0.
// A session with a reverse model reranks unless rerank is false, and then needs beam ≥ 2.
AttendResult* attend_translate(AttendSession* session, const char* options_json, const char* texts,
                               const uint32_t* ends, int count, AttendStepCallback on_step, AttendStatus* status);

// Cuts a document (`size` bytes of UTF-8 at `text`) into the sentences the session's model
// translates and the text kept around them (attend::plan_document with attend::plan_options: the
// model's source language, and the caption layer's phrases as `options_json`'s captionRules ask),
// taking `break_count` candidate sentence starts `breaks` (byte offsets: attend.mjs gets them
// from Intl.Segmenter in the model's source language). `options_json`: attend_translate's.
// JSON: [[begin, end, translate], ...], byte offsets, translate 1 for a sentence, 0 for kept text.
AttendResult* attend_plan_document(AttendSession* session, const char* options_json, const char* text, uint32_t size,
                                   const uint32_t* breaks, int break_count, AttendStatus* status);

// The texts of an HTML fragment's blocks (`size` bytes of UTF-8 at `html`), as attend::block_texts
// gives them, for the caller's sentence breaks. JSON: ["text of block 0", ...].
AttendResult* attend_html_blocks(const char* html, uint32_t size, AttendStatus* status);

// Translates an HTML fragment with its inline markup kept (attend::translate_html): block k's
// candidate sentence starts are breaks[offsets[k], offsets[k + 1]) (byte offsets into block k's
// text; offsets has block_count + 1 entries). Options and on_step as attend_translate's; on_step's
// sentence counts the fragment's sentences. JSON: {html, sentences: [{block, source, translation}]},
// each translation as attend_translate gives it; attend_result_attention(result, i, -1, kind) reads
// sentence i's attention.
AttendResult* attend_translate_html(AttendSession* session, const char* options_json, const char* html, uint32_t size,
                                    const uint32_t* breaks, const uint32_t* offsets, int block_count,
                                    AttendStepCallback on_step, AttendStatus* status);

const char* attend_result_json(const AttendResult* result);
// kind: 0 encoder, 1 decoder, 2 cross; member: -1 for the maps the translation shows, else an
// ensemble member's (from 0; the JSON's attention.members); shapes are in the JSON (null without
// attention). The caller keeps sentence, member and kind in range (an exception here could not be caught).
const float* attend_result_attention(const AttendResult* result, int sentence, int member, int kind);
void attend_result_free(AttendResult* result);

}  // extern "C"
