// `attend import`'s file finding (native/cli/marian_files.h over core's import/marian_files.h,
// which the page's import uses too) in model folders laid out as Firefox Translations and
// OPUS-MT lay them out, the licence text, and its reading of gzip files (native/cli/whole_file.h).
#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "attend/error.h"
#include "expect_has.h"
#include "marian_files.h"
#include "usage_error.h"
#include "whole_file.h"

namespace attend::cli {
namespace {

namespace fs = std::filesystem;

class MarianFiles : public testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(testing::TempDir()) / ("marian_files_" + std::string(testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  std::string file(const std::string& name, const std::string& text = "x") {
    const fs::path path = root_ / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }
  std::string dir(const std::string& name = "") const { return (root_ / name).string(); }

  fs::path root_;
};

std::string usage_error(const std::vector<std::string>& paths) {
  try {
    find_marian_files(paths);
  } catch (const UsageError& e) {
    return e.what();
  }
  ADD_FAILURE() << "found";
  return "";
}

TEST_F(MarianFiles, AFirefoxFolder) {
  const std::string model = file("enes/model.enes.intgemm.alphas.bin.gz");
  const std::string vocab = file("enes/vocab.enes.spm.gz");
  const std::string shortlist = file("enes/lex.50.50.enes.s2t.bin.gz");
  file("enes/metadata.json");
  const std::string license = file("enes/LICENSE");
  const MarianPaths found = find_marian_files({dir("enes")});
  EXPECT_EQ(found.model, model);
  EXPECT_EQ(found.source_vocab, vocab);
  EXPECT_EQ(found.target_vocab, "");
  EXPECT_EQ(found.shortlist, shortlist);
  EXPECT_EQ(found.licenses, std::vector<std::string>{license});
  EXPECT_EQ(languages_from_names(found), "en-es");
}

TEST_F(MarianFiles, TwoVocabulariesAndThreeLetterCodes) {
  file("enja/model.engjpn.intgemm8.bin");
  const std::string source = file("enja/srcvocab.engjpn.spm");
  const std::string target = file("enja/trgvocab.engjpn.spm");
  file("enja/README.md");
  const MarianPaths found = find_marian_files({dir("enja")});
  EXPECT_EQ(found.source_vocab, source);
  EXPECT_EQ(found.target_vocab, target);
  EXPECT_EQ(found.licenses.size(), 1u);
  EXPECT_EQ(languages_from_names(found), "eng-jpn");
}

TEST_F(MarianFiles, FilesNamedOneByOne) {
  const std::string model = file("opus.bin");
  const std::string vocab = file("opus.spm");
  const MarianPaths found = find_marian_files({model, vocab});
  EXPECT_EQ(found.model, model);
  EXPECT_EQ(found.source_vocab, vocab);
  EXPECT_EQ(languages_from_names(found), "") << "names that give no pair";
  EXPECT_EQ(languages_from_names(find_marian_files({file("model.base.bin"), vocab})), "") << "one name is no evidence";
  EXPECT_EQ(find_marian_files({model, file("m.model")}).source_vocab, dir("m.model")) << "spm_train's name";
  file("folder/model.ende.bin");
  file("folder/m.model");
  EXPECT_HAS(usage_error({dir("folder")}), "no vocabulary");  // in a folder, only vocab*.spm
}

TEST_F(MarianFiles, WhatIsMissingOrTwiceIsAUsageError) {
  EXPECT_HAS(usage_error({dir()}), "no model file");
  const std::string model = file("model.ende.bin");
  EXPECT_HAS(usage_error({model}), "no vocabulary");
  EXPECT_HAS(usage_error({model, file("srcvocab.ende.spm")}), "without its trgvocab*.spm");
  EXPECT_HAS(usage_error({model, file("a/vocab.spm"), file("b/vocab.spm")}), "two vocabulary files");
  EXPECT_HAS(usage_error({model, file("c/vocab.spm"), file("trgvocab.spm")}), "both one vocabulary");
  EXPECT_HAS(usage_error({model, file("model2.bin")}), "two model files");
  EXPECT_HAS(usage_error({file("lex.50.50.ende.s2t.bin")}), "no model file");  // a shortlist alone
  EXPECT_HAS(usage_error({model, file("vocab.ende.spm"), file("lex.1.bin"), file("lex.2.bin")}), "two shortlist files");
  EXPECT_HAS(usage_error({file("notes.txt")}), "is none of model*.bin");
  EXPECT_HAS(usage_error({dir("missing")}), "does not exist");
  MarianPaths disagree{file("model.ende.bin"), file("vocab.enfr.spm"), "", "", {}};
  try {
    languages_from_names(disagree);
    ADD_FAILURE() << "two pairs";
  } catch (const UsageError& e) {
    EXPECT_HAS(std::string(e.what()), "en-fr: say which languages it translates");
  }
}

// As the page lists a folder it is given: paths relative to the folder's parent, in any order,
// subfolders included; only the folder's own files count, in the order of their paths.
TEST(MarianFileChoice, ABrowsersFolderListing) {
  const std::vector<MarianFileEntry> entries = {
      {"ende/README.md", "ende"}, {"ende/sub/model.ende.bin", "ende"}, {"ende/vocab.ende.spm.gz", "ende"},
      {"ende/model.ende.intgemm.alphas.bin", "ende"}, {"ende/LICENSE", "ende"}, {"ende/metadata.json", "ende"},
      {"ende/lex.50.50.ende.s2t.bin", "ende"}};
  const MarianFileChoice chosen = choose_marian_files(entries);
  EXPECT_EQ(chosen.model, "ende/model.ende.intgemm.alphas.bin") << "not the subfolder's";
  EXPECT_EQ(chosen.source_vocab, "ende/vocab.ende.spm.gz");
  EXPECT_EQ(chosen.shortlist, "ende/lex.50.50.ende.s2t.bin");
  EXPECT_EQ(chosen.licenses, (std::vector<std::string>{"ende/LICENSE", "ende/README.md"}));
  EXPECT_EQ(marian_languages_from_names(chosen), "en-de");
  try {
    choose_marian_files({{"ende/model.ende.bin", "ende"}, {"ende/lex.50.50.ende.s2t.bin", "ende"}});
    ADD_FAILURE() << "no vocabulary";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_HAS(std::string(e.what()), "no vocabulary (vocab*.spm, or srcvocab*.spm and trgvocab*.spm, or source.spm and target.spm)");
  }
}

// An OPUS-MT release as unzipped: the .npz, its vocab.yml, source.spm and target.spm, decoder.yml,
// README.md and LICENSE; the logs, scripts and test files passed over.
TEST_F(MarianFiles, AnOpusMtFolder) {
  const std::string model = file("en-de/opus.spm32k-spm32k.transformer-align.model1.npz.best-perplexity.npz");
  const std::string vocab = file("en-de/opus.spm32k-spm32k.vocab.yml");
  const std::string source = file("en-de/source.spm"), target = file("en-de/target.spm");
  const std::string decoder = file("en-de/decoder.yml");
  const std::string readme = file("en-de/README.md"), license = file("en-de/LICENSE");
  for (const char* other : {"preprocess.sh", "postprocess.sh", "opus.spm32k-spm32k.transformer-align.train1.log",
                            "opus.spm32k-spm32k.transformer-align.valid1.log", "source.tcmodel"}) {
    file(std::string("en-de/") + other);
  }
  const MarianPaths found = find_marian_files({dir("en-de")});
  EXPECT_EQ(found.model, model);
  EXPECT_EQ(found.source_vocab, source);
  EXPECT_EQ(found.target_vocab, target);
  EXPECT_EQ(found.source_pieces, vocab);
  EXPECT_EQ(found.target_pieces, "");
  EXPECT_EQ(found.decoder_yml, decoder);
  EXPECT_EQ(found.licenses, (std::vector<std::string>{license, readme}));
  EXPECT_EQ(languages_from_names(found), "") << "OPUS-MT's names give no pair: --languages";
  // Tatoeba-Challenge releases: one vocab.yml per side.
  const std::string src = file("two/opusTCv20210807.spm32k-spm32k.src.vocab.yml");
  const std::string trg = file("two/opusTCv20210807.spm32k-spm32k.trg.vocab.yml");
  file("two/opusTCv20210807.spm32k-spm32k.transformer-big.model1.npz.best-perplexity.npz");
  file("two/source.spm");
  file("two/target.spm");
  const MarianPaths two = find_marian_files({dir("two")});
  EXPECT_EQ(two.source_pieces, src);
  EXPECT_EQ(two.target_pieces, trg);
  // Named one by one: any .npz is the model, any .yml the ids but a *decoder.yml.
  const MarianPaths named = find_marian_files({file("m.npz"), file("s.spm"), file("ids.yml"), file("model.npz.decoder.yml")});
  EXPECT_EQ(named.model, dir("m.npz"));
  EXPECT_EQ(named.source_pieces, dir("ids.yml"));
  EXPECT_EQ(named.decoder_yml, dir("model.npz.decoder.yml"));
  EXPECT_HAS(usage_error({model, vocab}), "no SentencePiece model (source.spm) cuts text into them");
  EXPECT_HAS(usage_error({model, source, target, vocab, src}), "both one vocab.yml");
  EXPECT_HAS(usage_error({model, source, target, trg}), "without its *.src.vocab.yml");
  EXPECT_HAS(usage_error({model, source, vocab}), "without its trgvocab*.spm (or target.spm)");
  EXPECT_HAS(usage_error({model, file("m.bin"), source, target}), "two model files");
}

// An OPUS-MT release's README as OPUS-MT-train wrote them in 2020 (ISO 639-1 codes where one
// exists) and as Tatoeba-Challenge writes them (ISO 639-3, scripts after "_").
const char* const kOpusMt2020Readme =
    "# opus+bt-2020-05-23.zip\n\n* dataset: opus+bt\n* model: transformer-align\n* source language(s): en\n"
    "* target language(s): gil\n* model: transformer-align\n* pre-processing: normalization + SentencePiece (spm4k,spm4k)\n"
    "* download: [opus+bt-2020-05-23.zip](https://object.pouta.csc.fi/OPUS-MT-models/en-gil/opus+bt-2020-05-23.zip)\n\n"
    "## Benchmarks\n\n| testset | BLEU | chr-F |\n|---|---|---|\n| JW300.en.gil | 38.8 | 0.604 |\n";
const char* const kTatoebaReadme =
    "# opus-2021-02-19.zip\n\n* dataset: opus\n* model: transformer-align\n* source language(s): deu\n"
    "* target language(s): srp_Cyrl srp_Latn\n* raw source language(s): deu\n* raw target language(s): srp\n"
    "* pre-processing: normalization + SentencePiece (spm32k,spm32k)\n"
    "* a sentence initial language token is required in the form of `>>id<<` (id = valid target language ID)\n"
    "* valid language labels: >>srp_Cyrl<< >>srp_Latn<<\n";
const char* const kMultiTargetReadme =
    "# opus-2020-06-28.zip\n\n* dataset: opus\n* model: transformer\n* source language(s): eng\n"
    "* target language(s): deu fra nld\n* valid language labels: >>deu<< >>fra<< >>nld<<\n";
const char* const kOpusMt2019Readme =
    "# opus-2019-12-18.zip\n\n* dataset: opus\n* model: transformer-align\n* pre-processing: normalization + SentencePiece\n";

TEST(MarianReadme, TheLanguagesAnOpusMtReadmeStates) {
  const ReadmeLanguages old = marian_readme_languages(kOpusMt2020Readme, "README.md");
  EXPECT_EQ(old.source, (std::vector<std::string>{"en"}));
  EXPECT_EQ(old.target, (std::vector<std::string>{"gil"}));
  const ReadmeLanguages tatoeba = marian_readme_languages(kTatoebaReadme, "README.md");
  EXPECT_EQ(tatoeba.source, (std::vector<std::string>{"deu"}));
  EXPECT_EQ(tatoeba.target, (std::vector<std::string>{"srp"})) << "two scripts of one language; the raw lines passed over";
  EXPECT_EQ(marian_readme_languages(kMultiTargetReadme, "README.md").target, (std::vector<std::string>{"deu", "fra", "nld"}));
  const ReadmeLanguages none = marian_readme_languages(kOpusMt2019Readme, "README.md");
  EXPECT_TRUE(none.source.empty() && none.target.empty());
  try {
    marian_readme_languages("* source language(s): English\n", "opus/README.md");
    ADD_FAILURE() << "read 'English' as a code";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_HAS(e.what(), "'opus/README.md' states the language 'English', not an ISO 639 code");
  }
}

TEST(MarianReadme, ThePairIsTwoLetterCodesWhereIcuHasOne) {
  EXPECT_EQ(two_letter_code("eng"), "en");
  EXPECT_EQ(two_letter_code("deu"), "de");
  EXPECT_EQ(two_letter_code("nob"), "nb");
  EXPECT_EQ(two_letter_code("srp"), "sr");
  EXPECT_EQ(two_letter_code("en"), "en");
  EXPECT_EQ(two_letter_code("gil"), "gil") << "Gilbertese has no ISO 639-1 code";
  EXPECT_EQ(two_letter_code("cmn"), "cmn") << "Mandarin is not folded into its macrolanguage zh";
  const auto readme = [](const char* text) { return NamedBytes{"opus/README.md", text}; };
  const NamedBytes license{"opus/LICENSE", "* source language(s): fra\n"};  // not a README: passed over
  EXPECT_EQ(languages_from_readmes({license, readme(kOpusMt2020Readme)}), "en-gil");
  EXPECT_EQ(languages_from_readmes({readme(kTatoebaReadme)}), "de-sr");
  EXPECT_EQ(languages_from_readmes({readme("* source language(s): eng\n* target language(s): deu\n")}), "en-de");
  EXPECT_EQ(languages_from_readmes({readme(kOpusMt2019Readme), license}), "") << "no statement: --languages";
  const auto refused = [](const std::vector<NamedBytes>& files) {
    try {
      languages_from_readmes(files);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("read");
  };
  EXPECT_HAS(refused({readme(kMultiTargetReadme)}),
             "'opus/README.md' states 3 target languages (deu fra nld): give the pair to import it as, as 'en-de' (--languages)");
  EXPECT_HAS(refused({readme("* source language(s): eng fra\n* target language(s): deu\n")}), "states 2 source languages (eng fra)");
  EXPECT_HAS(refused({readme("* target language(s): deu\n")}), "states no source language");
  EXPECT_HAS(refused({readme(kOpusMt2020Readme), NamedBytes{"opus/README.txt", "* source language(s): eng\n* target language(s): deu\n"}}),
             "'opus/README.md' states en-gil, 'opus/README.txt' en-de");
}

// The page's and the element's import (SeveralReadmeLanguages::unnamed): a multilingual README names
// no pair instead of asking for one; READMEs that disagree are still refused. The codes as the host
// writes them (the browser's Intl here stood in for by a lambda).
TEST(MarianReadme, AMultilingualReadmeNamesNoPairWhereThereIsNoPlaceToGiveOne) {
  const auto two_letter = [](const std::string& code) { return code == "eng" ? std::string("en") : code == "deu" ? std::string("de") : code; };
  const auto readme = [](const char* text) { return NamedBytes{"opus/README.md", text}; };
  constexpr auto unnamed = SeveralReadmeLanguages::unnamed;
  EXPECT_EQ(marian_languages_from_readmes({readme(kMultiTargetReadme)}, two_letter, unnamed), "");
  EXPECT_EQ(marian_languages_from_readmes({readme("* target language(s): deu\n")}, two_letter, unnamed), "");
  EXPECT_EQ(marian_languages_from_readmes({readme("* source language(s): eng\n* target language(s): deu\n")}, two_letter, unnamed), "en-de");
  EXPECT_EQ(marian_languages_from_readmes({readme("* source language(s): eng\n* target language(s): fra\n")}, two_letter, unnamed), "en-fra")
      << "a code the host writes no shorter stays as stated";
  const auto refused = [&](const std::vector<NamedBytes>& files, SeveralReadmeLanguages several) {
    try {
      marian_languages_from_readmes(files, two_letter, several);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
      return std::string(e.what());
    }
    return std::string("read");
  };
  EXPECT_EQ(refused({readme(kMultiTargetReadme)}, SeveralReadmeLanguages::refuse),
            "'opus/README.md' states 3 target languages (deu fra nld): give the pair to import it as, as 'en-de'");
  const NamedBytes other{"opus/README.txt", "* source language(s): eng\n* target language(s): deu\n"};
  EXPECT_EQ(refused({readme(kMultiTargetReadme), other}, unnamed),
            "'opus/README.txt' states en-de, 'opus/README.md' states 3 target languages (deu fra nld): give the languages it translates");
  EXPECT_EQ(refused({readme(kOpusMt2020Readme), other}, unnamed), "'opus/README.md' states en-gil, 'opus/README.txt' en-de: give the languages it translates");
}

TEST(MarianFileChoice, LicenceText) {
  EXPECT_EQ(marian_license_text({}), "");
  EXPECT_EQ(marian_license_text({{"/home/me/ende/LICENSE", "MIT\n"}}), "MIT\n") << "one file as it is";
  EXPECT_EQ(marian_license_text({{"/home/me/ende/LICENSE", "MIT\n"}, {"ende/README.md", "A model.\n"}}),
            "==> LICENSE <==\nMIT\n\n==> README.md <==\nA model.\n")
      << "several named without their folders, which differ between hosts and people";
}

TEST_F(MarianFiles, GzipIsInflatedPlainIsNot) {
  const std::string text(300000, 'a');
  const std::string gz = dir("x.gz");
  gzFile out = gzopen(gz.c_str(), "wb");
  gzwrite(out, text.data(), static_cast<unsigned>(text.size()));
  gzclose(out);
  EXPECT_EQ(read_whole_file(gz), text);
  std::ifstream in(gz, std::ios::binary);  // two members, as pigz writes
  const std::string member((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(read_whole_file(file("two.gz", member + member)), text + text);
  EXPECT_EQ(read_whole_file(file("plain.bin", "\x1f plain")), "\x1f plain");
  try {
    read_whole_file(file("cut.gz", member.substr(0, member.size() / 2)));
    ADD_FAILURE() << "read a truncated file";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::io);
    EXPECT_HAS(std::string(e.what()), "the gzip data ends early (truncated)");
  }
  EXPECT_THROW(read_whole_file(dir("none")), Error);
}

}  // namespace
}  // namespace attend::cli
