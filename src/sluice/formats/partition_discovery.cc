#include "sluice/formats/partition_discovery.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <system_error>

#include <arrow/scalar.h>
#include <arrow/type.h>
#include <arrow/util/decimal.h>

#include "sluice/checkpoint/file_sink_log.h"
#include "sluice/common/errors.h"
#include "sluice/datetime/parse.h"
#include "sluice/formats/file_format.h"

namespace sluice::formats {

namespace fs = std::filesystem;

namespace {

bool HasGlob(std::string_view component) {
  return component.find_first_of("*?[{") != std::string_view::npos;
}

}  // namespace

// Declared in the header: the file source's cleanSource check matches globs too.
bool GlobMatch(std::string_view pattern, std::string_view name) {
  size_t p = 0, n = 0;
  while (p < pattern.size()) {
    char c = pattern[p];
    if (c == '*') {
      for (size_t k = n; k <= name.size(); ++k) {
        if (GlobMatch(pattern.substr(p + 1), name.substr(k))) return true;
      }
      return false;
    }
    if (c == '{') {
      size_t depth = 0, close = p;
      for (; close < pattern.size(); ++close) {
        if (pattern[close] == '{') ++depth;
        if (pattern[close] == '}' && --depth == 0) break;
      }
      if (close == pattern.size()) return false;
      std::string_view body = pattern.substr(p + 1, close - p - 1);
      std::string_view rest = pattern.substr(close + 1);
      size_t start = 0;
      int nested = 0;
      for (size_t i = 0; i <= body.size(); ++i) {
        if (i < body.size() && body[i] == '{') ++nested;
        if (i < body.size() && body[i] == '}') --nested;
        if (i == body.size() || (body[i] == ',' && nested == 0)) {
          std::string alternative(body.substr(start, i - start));
          alternative.append(rest);
          if (GlobMatch(alternative, name.substr(n))) return true;
          start = i + 1;
        }
      }
      return false;
    }
    if (n >= name.size()) return false;
    if (c == '?') {
      ++p;
      ++n;
      continue;
    }
    if (c == '[') {
      size_t close = pattern.find(']', p + 1);
      if (close == std::string_view::npos) return false;
      std::string_view set = pattern.substr(p + 1, close - p - 1);
      bool negate = !set.empty() && (set[0] == '^' || set[0] == '!');
      if (negate) set.remove_prefix(1);
      bool matched = false;
      for (size_t i = 0; i < set.size(); ++i) {
        if (i + 2 < set.size() && set[i + 1] == '-') {
          if (name[n] >= set[i] && name[n] <= set[i + 2]) matched = true;
          i += 2;
        } else if (set[i] == name[n]) {
          matched = true;
        }
      }
      if (matched == negate) return false;
      p = close + 1;
      ++n;
      continue;
    }
    if (c == '\\' && p + 1 < pattern.size()) c = pattern[++p];
    if (c != name[n]) return false;
    ++p;
    ++n;
  }
  return n == name.size();
}

namespace {

std::vector<std::string> SplitComponents(std::string_view path) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash > start) parts.emplace_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return parts;
}

/// The paths matching an absolute glob, sorted.
std::vector<std::string> ExpandGlob(const std::string& absolute) {
  std::vector<std::string> current = {"/"};
  for (const std::string& component : SplitComponents(absolute)) {
    std::vector<std::string> next;
    for (const std::string& base : current) {
      std::string prefix = base == "/" ? "/" : base + "/";
      if (!HasGlob(component)) {
        std::error_code error;
        if (fs::exists(prefix + component, error)) next.push_back(prefix + component);
        continue;
      }
      std::error_code error;
      if (!fs::is_directory(base, error)) continue;
      for (const auto& entry : fs::directory_iterator(base, error)) {
        std::string name = entry.path().filename().string();
        if (GlobMatch(component, name)) next.push_back(prefix + name);
      }
    }
    std::sort(next.begin(), next.end());
    current = std::move(next);
    if (current.empty()) break;
  }
  return current;
}

/// Collects the data files under `directory`, sorted by path, skipping hidden names.
void Walk(const fs::path& directory, const FileSourceOptions& options,
          std::vector<std::string>& found, arrow::Status& status) {
  std::error_code error;
  std::vector<fs::directory_entry> entries;
  for (const auto& entry : fs::directory_iterator(directory, error)) entries.push_back(entry);
  if (error) {
    status = arrow::Status::IOError("Cannot list ", QualifiedPath(directory.string()), ": ",
                                    error.message());
    return;
  }
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.path() < b.path(); });
  for (const auto& entry : entries) {
    std::string name = entry.path().filename().string();
    if (IsHiddenPathName(name)) continue;
    if (entry.is_directory(error)) {
      Walk(entry.path(), options, found, status);
      if (!status.ok()) return;
    } else if (options.path_glob_filter.empty() || GlobMatch(options.path_glob_filter, name)) {
      found.push_back(entry.path().string());
    }
  }
}

/// The key=value folders between `root` and `file`, outermost first (none when `file` is not
/// below `root`).
std::vector<std::pair<std::string, std::string>> PartitionFolders(const std::string& root,
                                                                  const std::string& file) {
  std::vector<std::pair<std::string, std::string>> partitions;
  fs::path relative = fs::path(file).lexically_relative(fs::path(root));
  if (relative.empty() || *relative.begin() == "..") return partitions;
  fs::path folders = relative.parent_path();
  for (const auto& component : folders) {
    std::string name = component.string();
    size_t equals = name.find('=');
    if (equals == std::string::npos || equals == 0) continue;
    partitions.emplace_back(UnescapePathName(name.substr(0, equals)), name.substr(equals + 1));
  }
  return partitions;
}

/// The files a file sink committed to `folder` (its _spark_metadata manifest), sorted, as
/// Spark's MetadataLogFileIndex reads them: files of failed or uncommitted batches stay
/// invisible.
arrow::Result<std::vector<std::string>> ManifestFiles(const std::string& folder,
                                                      const FileSourceOptions& options) {
  ARROW_ASSIGN_OR_RAISE(auto committed, checkpoint::CommittedSinkFiles(folder));
  std::vector<std::string> files;
  if (!committed) return files;
  for (auto& file : *committed) {
    std::string name = fs::path(file).filename().string();
    if (!options.path_glob_filter.empty() && !GlobMatch(options.path_glob_filter, name)) {
      continue;
    }
    files.push_back(std::move(file));
  }
  std::sort(files.begin(), files.end());
  return files;
}

bool ParseInt64(std::string_view text, int64_t* value) {
  if (text.empty()) return false;
  std::string_view digits = text;
  if (digits[0] == '+') digits.remove_prefix(1);
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), *value);
  return error == std::errc() && end == digits.data() + digits.size();
}

bool ParseJavaDouble(std::string_view text, double* value) {
  std::string copy(text);
  while (!copy.empty() && static_cast<unsigned char>(copy.back()) <= ' ') copy.pop_back();
  size_t start = 0;
  while (start < copy.size() && static_cast<unsigned char>(copy[start]) <= ' ') ++start;
  copy = copy.substr(start);
  if (copy.empty()) return false;
  if (!copy.empty() && (copy.back() == 'd' || copy.back() == 'D' || copy.back() == 'f' ||
                        copy.back() == 'F')) {
    copy.pop_back();
  }
  if (copy == "NaN") {
    *value = std::nan("");
    return true;
  }
  if (copy == "Infinity" || copy == "+Infinity") {
    *value = HUGE_VAL;
    return true;
  }
  if (copy == "-Infinity") {
    *value = -HUGE_VAL;
    return true;
  }
  for (char c : copy) {
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' ||
          c == '+' || c == '-')) {
      return false;
    }
  }
  char* end = nullptr;
  *value = std::strtod(copy.c_str(), &end);
  return end == copy.c_str() + copy.size();
}

bool IsTimestampPartition(std::string_view text) {
  // yyyy-MM-dd HH:mm:ss[.S...], as Spark's partition timestamp formatter.
  if (text.size() < 19 || text[10] != ' ') return false;
  return datetime::ParseTimestampNtz(text, /*allow_zone=*/false, std::nullopt).has_value();
}

bool IsDatePartition(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  return datetime::ParseDate(text).has_value();
}

/// Spark's findWiderTypeForPartitionColumn.
std::shared_ptr<arrow::DataType> Wider(const std::shared_ptr<arrow::DataType>& a,
                                       const std::shared_ptr<arrow::DataType>& b) {
  if (a->id() == arrow::Type::NA) return b;
  if (b->id() == arrow::Type::NA) return a;
  if (a->Equals(*b)) return a;
  auto rank = [](const arrow::DataType& t) {
    switch (t.id()) {
      case arrow::Type::INT32: return 1;
      case arrow::Type::INT64: return 2;
      case arrow::Type::DECIMAL128: return 3;
      case arrow::Type::DOUBLE: return 4;
      default: return 0;
    }
  };
  int ra = rank(*a), rb = rank(*b);
  if (ra > 0 && rb > 0) {
    if (ra == 4 || rb == 4) return arrow::float64();
    if (ra == 3 || rb == 3) {
      // Integral with decimal: a decimal wide enough for both.
      auto precision_of = [](const arrow::DataType& t) {
        if (t.id() == arrow::Type::INT32) return 10;
        if (t.id() == arrow::Type::INT64) return 20;
        return static_cast<const arrow::Decimal128Type&>(t).precision();
      };
      int precision = std::max(precision_of(*a), precision_of(*b));
      return arrow::decimal128(std::min(precision, 38), 0);
    }
    return arrow::int64();
  }
  bool a_datetime = a->id() == arrow::Type::DATE32 || a->id() == arrow::Type::TIMESTAMP;
  bool b_datetime = b->id() == arrow::Type::DATE32 || b->id() == arrow::Type::TIMESTAMP;
  if (a_datetime && b_datetime) return arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
  return arrow::utf8();
}

/// The value of a partition folder as `type`, or a null of that type when it does not convert.
std::shared_ptr<arrow::Scalar> PartitionScalar(std::string_view raw,
                                               const std::shared_ptr<arrow::DataType>& type,
                                               const datetime::TimeZone& zone) {
  if (raw == kDefaultPartitionName) return arrow::MakeNullScalar(type);
  auto value = ParsePartitionValue(UnescapePathName(raw), type, zone);
  return value != nullptr ? value : arrow::MakeNullScalar(type);
}

}  // namespace

std::string LocalPath(std::string_view user_path) {
  std::string_view path = user_path;
  if (path.starts_with("file://")) {
    path.remove_prefix(7);
  } else if (path.starts_with("file:")) {
    path.remove_prefix(5);
  }
  fs::path absolute = fs::absolute(fs::path(std::string(path))).lexically_normal();
  std::string text = absolute.string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return text;
}

std::string QualifiedPath(std::string_view local_path) {
  return "file:" + std::string(local_path);
}

std::string EscapePathName(std::string_view name) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(name.size());
  for (char c : name) {
    unsigned char u = static_cast<unsigned char>(c);
    // Spark's set (ExternalCatalogUtils.charToEscape), plus NUL: Spark leaves it, and the
    // file system then refuses the path; %00 reads back as NUL in Spark and here.
    bool escape = u <= 0x1F || u == 0x7F || c == '"' || c == '#' || c == '%' ||
                  c == '\'' || c == '*' || c == '/' || c == ':' || c == '=' || c == '?' ||
                  c == '\\' || c == '{' || c == '[' || c == ']' || c == '^';
    if (escape) {
      out.push_back('%');
      out.push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 15]);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string UnescapePathName(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '%' && i + 2 < name.size() &&
        hex(name[i + 1]) >= 0 && hex(name[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex(name[i + 1]) * 16 + hex(name[i + 2])));
      i += 2;
    } else {
      out.push_back(name[i]);
    }
  }
  return out;
}

bool IsHiddenPathName(std::string_view name) {
  return (name.starts_with('_') && name.find('=') == std::string_view::npos) ||
         name.starts_with('.') || name.ends_with("._COPYING_");
}

std::shared_ptr<arrow::DataType> InferPartitionValueType(std::string_view raw) {
  if (raw == kDefaultPartitionName) return arrow::null();
  std::string text = UnescapePathName(raw);
  int64_t integer;
  if (ParseInt64(text, &integer)) {
    if (integer >= INT32_MIN && integer <= INT32_MAX) return arrow::int32();
    return arrow::int64();
  }
  bool digits_only = !text.empty();
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (!(std::isdigit(static_cast<unsigned char>(c)) || (i == 0 && (c == '-' || c == '+')))) {
      digits_only = false;
    }
  }
  if (digits_only) {
    size_t digits = text.size() - (text[0] == '-' || text[0] == '+' ? 1 : 0);
    if (digits <= 38) return arrow::decimal128(static_cast<int32_t>(digits), 0);
  }
  double ignored;
  if (ParseJavaDouble(text, &ignored)) return arrow::float64();
  if (IsTimestampPartition(text)) return arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
  if (IsDatePartition(text)) return arrow::date32();
  return arrow::utf8();
}

arrow::Result<FileListing> ListFiles(std::string_view path, const FileSourceOptions& options,
                                     const std::shared_ptr<arrow::Schema>& user_schema,
                                     std::string_view time_zone) {
  std::string local = LocalPath(path);
  bool glob = HasGlob(local);
  std::vector<std::string> roots;
  if (glob) {
    roots = ExpandGlob(local);
  } else {
    std::error_code error;
    if (fs::exists(local, error)) roots.push_back(local);
  }
  if (roots.empty()) {
    return SparkError("PATH_NOT_FOUND", "Path does not exist: " + QualifiedPath(local) + ".");
  }
  std::vector<RootedFile> found;
  for (const std::string& root : roots) {
    std::error_code error;
    if (!fs::is_directory(root, error)) {
      found.push_back({root, root});
      continue;
    }
    std::vector<std::string> files;
    // Spark trusts a file sink's manifest only for a plain (non-glob) folder path.
    if (!glob && checkpoint::HasSinkManifest(root)) {
      ARROW_ASSIGN_OR_RAISE(files, ManifestFiles(root, options));
    } else {
      arrow::Status status;
      Walk(root, options, files, status);
      ARROW_RETURN_NOT_OK(status);
    }
    for (auto& file : files) found.push_back({root, std::move(file)});
  }
  return DiscoverPartitions(found, options, user_schema, time_zone);
}

arrow::Result<FileListing> DiscoverPartitions(const std::vector<RootedFile>& files,
                                              const FileSourceOptions& options,
                                              const std::shared_ptr<arrow::Schema>& user_schema,
                                              std::string_view time_zone) {
  std::vector<std::vector<std::pair<std::string, std::string>>> folders;
  folders.reserve(files.size());
  for (const auto& file : files) {
    folders.push_back(options.recursive_file_lookup
                          ? std::vector<std::pair<std::string, std::string>>{}
                          : PartitionFolders(file.root, file.path));
  }
  FileListing listing;
  // Partition columns: the names of the first file; every file must have the same ones.
  std::vector<std::string> names;
  if (!files.empty()) {
    for (const auto& [key, value] : folders[0]) names.push_back(key);
  }
  for (size_t f = 0; f < files.size(); ++f) {
    bool same = folders[f].size() == names.size();
    for (size_t i = 0; same && i < names.size(); ++i) same = folders[f][i].first == names[i];
    if (!same) {
      std::string detail;
      for (const auto* other : {&files[0], &files[f]}) {
        detail += "\n\t" + QualifiedPath(other->path);
      }
      return SparkError("CONFLICTING_DIRECTORY_STRUCTURES",
                        "Conflicting directory structures detected. Suspicious paths:" + detail +
                            "\nIf provided paths are partition directories, please set "
                            "\"basePath\" in the options of the data source to specify the root "
                            "directory of the table.");
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto zone, FindZone(time_zone));
  arrow::FieldVector fields;
  for (size_t i = 0; i < names.size(); ++i) {
    std::shared_ptr<arrow::DataType> type;
    std::shared_ptr<arrow::Field> user_field;
    if (user_schema != nullptr) {
      for (const auto& field : user_schema->fields()) {
        std::string a = field->name(), b = names[i];
        std::transform(a.begin(), a.end(), a.begin(), ::tolower);
        std::transform(b.begin(), b.end(), b.begin(), ::tolower);
        if (a == b) user_field = field;
      }
    }
    if (user_field != nullptr) {
      type = user_field->type();
    } else {
      type = arrow::null();
      for (const auto& file : folders) type = Wider(type, InferPartitionValueType(file[i].second));
      if (type->id() == arrow::Type::NA) type = arrow::utf8();
    }
    fields.push_back(arrow::field(user_field ? user_field->name() : names[i], type, true));
  }
  listing.partition_schema = arrow::schema(fields);
  for (size_t f = 0; f < files.size(); ++f) {
    std::vector<std::shared_ptr<arrow::Scalar>> values;
    for (size_t i = 0; i < names.size(); ++i) {
      values.push_back(PartitionScalar(folders[f][i].second, fields[i]->type(), *zone));
    }
    listing.files.push_back(files[f].path);
    listing.partition_values.push_back(std::move(values));
  }
  return listing;
}

std::shared_ptr<arrow::Scalar> ParsePartitionValue(const std::string& text,
                                                   const std::shared_ptr<arrow::DataType>& type,
                                                   const datetime::TimeZone& zone) {
  switch (type->id()) {
    case arrow::Type::STRING:
      return std::make_shared<arrow::StringScalar>(text);
    case arrow::Type::INT8:
    case arrow::Type::INT16:
    case arrow::Type::INT32:
    case arrow::Type::INT64: {
      int64_t value;
      if (!ParseInt64(text, &value)) break;
      auto scalar = arrow::MakeScalar(type, value);
      if (!scalar.ok()) break;
      return *scalar;
    }
    case arrow::Type::DOUBLE:
    case arrow::Type::FLOAT: {
      double value;
      if (!ParseJavaDouble(text, &value)) break;
      if (type->id() == arrow::Type::FLOAT) {
        return std::make_shared<arrow::FloatScalar>(static_cast<float>(value));
      }
      return std::make_shared<arrow::DoubleScalar>(value);
    }
    case arrow::Type::DECIMAL128: {
      arrow::Decimal128 value;
      int32_t precision, scale;
      if (!arrow::Decimal128::FromString(text, &value, &precision, &scale).ok()) break;
      const auto& decimal = static_cast<const arrow::Decimal128Type&>(*type);
      auto rescaled = value.Rescale(scale, decimal.scale());
      if (!rescaled.ok()) break;
      return std::make_shared<arrow::Decimal128Scalar>(*rescaled, type);
    }
    case arrow::Type::DATE32: {
      auto days = datetime::ParseDate(text);
      if (!days) break;
      return std::make_shared<arrow::Date32Scalar>(static_cast<int32_t>(*days));
    }
    case arrow::Type::TIMESTAMP: {
      const auto& ts = static_cast<const arrow::TimestampType&>(*type);
      auto micros = ts.timezone().empty()
                        ? datetime::ParseTimestampNtz(text, /*allow_zone=*/true, std::nullopt)
                        : datetime::ParseTimestamp(text, zone, std::nullopt);
      if (!micros) break;
      return std::make_shared<arrow::TimestampScalar>(*micros, type);
    }
    case arrow::Type::BOOL: {
      if (text == "true" || text == "TRUE" || text == "True") {
        return std::make_shared<arrow::BooleanScalar>(true);
      }
      if (text == "false" || text == "FALSE" || text == "False") {
        return std::make_shared<arrow::BooleanScalar>(false);
      }
      break;
    }
    default:
      break;
  }
  return nullptr;
}

}  // namespace sluice::formats
