// RequestFields: LibreTranslate's fields from JSON or form bodies, each wrong one a 400 naming it.
#include "request_fields.h"

#include <gtest/gtest.h>

namespace attend::server {
namespace {

HttpRequest json_request(const std::string& body) {
  HttpRequest request;
  request.method = "POST";
  request.headers["content-type"] = "application/json";
  request.body = body;
  return request;
}

int status_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const ApiError& error) {
    return error.status;
  }
  return 0;
}

TEST(RequestFields, TakesQAsAStringOrAnArray) {
  bool as_array = true;
  EXPECT_EQ(RequestFields::of(json_request(R"({"q": "A dog."})")).texts("q", &as_array),
            std::vector<std::string>{"A dog."});
  EXPECT_FALSE(as_array);
  EXPECT_EQ(RequestFields::of(json_request(R"({"q": ["A dog.", "A cat."]})")).texts("q", &as_array),
            (std::vector<std::string>{"A dog.", "A cat."}));
  EXPECT_TRUE(as_array);
}

TEST(RequestFields, TakesFormFieldsAndARepeatedQAsAnArray) {
  HttpRequest request;
  request.headers["content-type"] = "application/x-www-form-urlencoded";
  request.form = {{"q", "A dog."}, {"source", "en"}, {"q", "A cat."}, {"alternatives", "2"}, {"flag", "true"}};
  const RequestFields fields = RequestFields::of(request);
  bool as_array = false;
  EXPECT_EQ(fields.texts("q", &as_array), (std::vector<std::string>{"A dog.", "A cat."}));
  EXPECT_TRUE(as_array);
  EXPECT_EQ(fields.text("source"), "en");
  EXPECT_EQ(fields.number_or("alternatives", 0, 0, 8), 2);
  EXPECT_TRUE(fields.flag_or("flag", false));
  EXPECT_EQ(fields.text_or("format", "text"), "text");
}

TEST(RequestFields, ABodyStartingWithABraceIsJsonWithoutAContentType) {
  HttpRequest request;
  request.body = R"( {"source": "de"})";
  EXPECT_EQ(RequestFields::of(request).text("source"), "de");
}

TEST(RequestFields, RefusesBadJsonAndWrongFieldsWith400) {
  EXPECT_EQ(status_of([] { RequestFields::of(json_request(R"({"q": )")); }), 400);
  EXPECT_EQ(status_of([] { RequestFields::of(json_request("[1, 2]")); }), 400);
  EXPECT_EQ(status_of([] { RequestFields::of(json_request(std::string(100, '[') + std::string(100, ']'))); }), 400);
  const RequestFields fields = RequestFields::of(json_request(R"({"q": 5, "list": ["a", 1], "n": 2.5, "big": "99999999999"})"));
  bool as_array = false;
  EXPECT_EQ(status_of([&] { fields.text("missing"); }), 400);
  EXPECT_EQ(status_of([&] { fields.text("q"); }), 400);
  EXPECT_EQ(status_of([&] { fields.texts("list", &as_array); }), 400);
  EXPECT_EQ(status_of([&] { fields.number_or("n", 0, 0, 8); }), 400);
  EXPECT_EQ(status_of([&] { fields.number_or("big", 0, 0, 8); }), 400);
  try {
    fields.text("missing");
  } catch (const ApiError& error) {
    EXPECT_EQ(error.message, "Invalid request: missing missing parameter");
  }
}

TEST(RequestFields, ANullFieldIsAMissingOne) {
  const RequestFields fields = RequestFields::of(json_request(R"({"format": null})"));
  EXPECT_FALSE(fields.has("format"));
  EXPECT_EQ(fields.text_or("format", "text"), "text");
}

}  // namespace
}  // namespace attend::server
