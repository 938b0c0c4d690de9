#include "head_spec.h"

#include <gtest/gtest.h>

#include "usage_error.h"

namespace attend::cli {
namespace {

TEST(HeadSpec, ParsesEachKind) {
  HeadRef head = parse_head_spec("encoder:1:0");
  EXPECT_EQ(head.kind, AttentionKind::encoder);
  EXPECT_EQ(head.layer, 1);
  EXPECT_EQ(head.head, 0);
  EXPECT_EQ(parse_head_spec("decoder:0:3").kind, AttentionKind::decoder);
  head = parse_head_spec("cross:12:7");
  EXPECT_EQ(head.kind, AttentionKind::cross);
  EXPECT_EQ(head.layer, 12);
  EXPECT_EQ(head.head, 7);
}

TEST(HeadSpec, RejectsMalformed) {
  for (const char* text :
       {"", "cross", "cross:1", "cross:1:", "cross::1", "self:0:0", "cross:-1:0", "cross:0:x",
        "cross:0:1:2", "Cross:0:0", "cross:9999999:0", "cross: 1:0"}) {
    EXPECT_THROW(parse_head_spec(text), UsageError) << text;
  }
}

TEST(HeadSpec, ChecksAgainstTheModel) {
  ModelConfig config;
  config.encoder_layers = 3;
  config.decoder_layers = 2;
  config.num_heads = 4;
  EXPECT_NO_THROW(
      check_heads_exist({parse_head_spec("encoder:2:3"), parse_head_spec("cross:1:0")}, config));
  try {
    check_heads_exist({parse_head_spec("decoder:2:0")}, config);
    FAIL();
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(),
                 "--mask-head decoder:2:0: the model has 2 decoder layers of 4 heads");
  }
  EXPECT_THROW(check_heads_exist({parse_head_spec("cross:0:4")}, config), UsageError);
}

}  // namespace
}  // namespace attend::cli
