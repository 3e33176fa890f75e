#include "sluice/checkpoint/file_uri.h"

#include <cctype>

namespace sluice::checkpoint {

namespace {

bool KeptInUriPath(unsigned char c) {
  if (c >= 0x80) return true;  // java.net.URI's "other" characters stay as they are
  if (std::isalnum(c)) return true;
  return std::string_view("-_.!~*'():@&=+$,;/").find(static_cast<char>(c)) !=
         std::string_view::npos;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string FileUri(std::string_view local_path) { return "file://" + EncodeUriPath(local_path); }

std::string EncodeUriPath(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string uri;
  uri.reserve(path.size());
  for (char c : path) {
    auto u = static_cast<unsigned char>(c);
    if (KeptInUriPath(u)) {
      uri.push_back(c);
    } else {
      uri.push_back('%');
      uri.push_back(kHex[u >> 4]);
      uri.push_back(kHex[u & 15]);
    }
  }
  return uri;
}

arrow::Result<std::string> LocalPathOfFileUri(std::string_view uri) {
  std::string_view path = uri;
  if (path.starts_with("file:")) path.remove_prefix(5);
  if (path.starts_with("//")) {
    // An authority may follow; a local file has an empty one ("file:///abs").
    path.remove_prefix(2);
    if (!path.starts_with('/')) {
      return arrow::Status::Invalid("The file source log names '", uri,
                                    "', which is not a local file URI");
    }
  }
  if (!path.starts_with('/')) {
    return arrow::Status::Invalid("The file source log names '", uri,
                                  "', which is not an absolute file URI");
  }
  auto local = DecodeUriPath(path);
  if (!local.ok()) {
    return arrow::Status::Invalid("The file source log names '", uri,
                                  "', which holds a malformed escape");
  }
  return local;
}

arrow::Result<std::string> DecodeUriPath(std::string_view path) {
  std::string local;
  local.reserve(path.size());
  for (size_t i = 0; i < path.size(); ++i) {
    if (path[i] != '%') {
      local.push_back(path[i]);
      continue;
    }
    if (i + 2 >= path.size() || HexValue(path[i + 1]) < 0 || HexValue(path[i + 2]) < 0) {
      return arrow::Status::Invalid("'", path, "' holds a malformed escape");
    }
    local.push_back(static_cast<char>(HexValue(path[i + 1]) * 16 + HexValue(path[i + 2])));
    i += 2;
  }
  return local;
}

}  // namespace sluice::checkpoint
