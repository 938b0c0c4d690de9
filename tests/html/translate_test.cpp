// translate_html on the shipped en-de model: markup kept around the right words.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "attend/error.h"
#include "attend/html.h"

namespace attend {
namespace {

Translator& shipped() {
  static Translator translator(Model::from_file(ATTEND_SHIPPED_MODEL));
  return translator;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(TranslateHtml, Probe) {
  for (const char* html : {"<p>A <b>red</b> car drives past <a href=\"/x\">a <i>small</i> house</a>.</p><ul><li>Two dogs play.</li></ul>",
                           "<p>A man with the number <b>512</b> on his shirt.</p>",
                           "<p>A <b>man rides. Two</b> dogs play.</p>",
                           "<p>The <em>young</em> woman is walking a <strong>brown dog</strong> on the beach.</p>"}) {
    const HtmlTranslation t = translate_html(shipped(), html);
    std::printf("%s\n%s\n\n", html, t.html.c_str());
  }
}

}  // namespace
}  // namespace attend
