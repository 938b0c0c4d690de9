#include "line_reader.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <string>
#include <vector>

#include "attend/error.h"

namespace attend::cli {
namespace {

std::string temp_path(const std::string& name) { return ::testing::TempDir() + "/" + name; }

std::string write_plain(const std::string& name, const std::string& bytes) {
  std::string path = temp_path(name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string write_gzip(const std::string& name, const std::string& bytes) {
  std::string path = temp_path(name);
  gzFile file = gzopen(path.c_str(), "wb");
  gzwrite(file, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(file);
  return path;
}

TEST(LineReader, SplitsLinesAndStripsLineEnds) {
  std::string path = write_plain("plain.txt", "one\r\n\ntwo\nthree");
  EXPECT_EQ(read_lines(path), (std::vector<std::string>{"one", "", "two", "three"}));
  EXPECT_EQ(read_lines(write_plain("empty.txt", "")), std::vector<std::string>{});
  EXPECT_EQ(read_lines(write_plain("newline.txt", "\n")), std::vector<std::string>{""});
}

TEST(LineReader, ReadsGzipAndKeepsBytes) {
  std::string text = std::string("caf\xc3\xa9\n") + std::string("nul\0byte", 8) + "\n\xff\n";
  EXPECT_EQ(read_lines(write_gzip("text.gz", text)),
            (std::vector<std::string>{"caf\xc3\xa9", std::string("nul\0byte", 8), "\xff"}));
}

TEST(LineReader, LinesLongerThanItsBuffer) {
  std::string long_line(200000, 'x');
  EXPECT_EQ(read_lines(write_gzip("long.gz", "a\n" + long_line + "\nb\n")),
            (std::vector<std::string>{"a", long_line, "b"}));
}

TEST(LineReader, MissingFileIsAnIoError) {
  try {
    LineReader reader(temp_path("does-not-exist.txt"));
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ErrorCode::io);
    EXPECT_NE(std::string(error.what()).find("does-not-exist.txt': No such file or directory"),
              std::string::npos);
  }
}

TEST(LineReader, DamagedGzipIsAnIoError) {
  std::string path = write_gzip("damaged.gz", std::string(5000, 'y') + "\n");
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  bytes.resize(bytes.size() / 2);  // truncated in the middle of the deflate stream
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  try {
    read_lines(path);
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ErrorCode::io);
    EXPECT_NE(std::string(error.what()).find("cannot read '"), std::string::npos);
  }
}

}  // namespace
}  // namespace attend::cli
