// EXPECT_HAS(text, part): `text` (evaluated once) holds `part`; the import tests' check of an
// error message.
#pragma once

#include <gtest/gtest.h>

#include <string>

#define EXPECT_HAS(text, part)                                     \
  do {                                                             \
    const std::string text_ = (text);                              \
    EXPECT_NE(text_.find(part), std::string::npos) << text_;       \
  } while (0)
