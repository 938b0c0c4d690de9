#include "model/byte_storage.h"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "attend/error.h"

#if !defined(__EMSCRIPTEN__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define ATTEND_HAVE_MMAP 1
#endif

namespace attend {
namespace {

class OwnedBytes final : public ByteStorage {
 public:
  explicit OwnedBytes(std::vector<uint8_t> bytes) : bytes_(std::move(bytes)) {}
  const uint8_t* data() const override { return bytes_.data(); }
  size_t size() const override { return bytes_.size(); }

 private:
  std::vector<uint8_t> bytes_;
};

#if ATTEND_HAVE_MMAP
class MappedFile final : public ByteStorage {
 public:
  MappedFile(void* data, size_t size) : data_(data), size_(size) {}
  ~MappedFile() override { munmap(data_, size_); }
  const uint8_t* data() const override { return static_cast<const uint8_t*>(data_); }
  size_t size() const override { return size_; }

 private:
  void* data_;
  size_t size_;
};
#endif

[[noreturn]] void throw_io(const std::string& path, const char* what) {
  throw Error(ErrorCode::io, "cannot " + std::string(what) + " model file '" + path + "': " +
                                 std::strerror(errno));
}

}  // namespace

std::unique_ptr<ByteStorage> ByteStorage::from_vector(std::vector<uint8_t> bytes) {
  return std::make_unique<OwnedBytes>(std::move(bytes));
}

std::unique_ptr<ByteStorage> ByteStorage::from_file(const std::string& path) {
#if ATTEND_HAVE_MMAP
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw_io(path, "open");
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    throw_io(path, "stat");
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw Error(ErrorCode::io, "model path '" + path + "' is a directory, not a file");
  }
  const size_t size = static_cast<size_t>(st.st_size);
  if (size > 0) {
    void* data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (data != MAP_FAILED) return std::make_unique<MappedFile>(data, size);
  } else {
    ::close(fd);
  }
#endif
  // No mmap (WebAssembly, empty file or a failed map): read the bytes.
  std::ifstream in(path, std::ios::binary);
  if (!in) throw_io(path, "open");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw_io(path, "read");
  return from_vector(std::move(bytes));
}

}  // namespace attend
