#include "sluice/checkpoint/offset_seq.h"

#include <simdjson.h>

#include "sluice/checkpoint/batch_log.h"
#include "sluice/common/json_string.h"

namespace sluice::checkpoint {

namespace {

constexpr int kOffsetLogVersion = 1;
constexpr int kCommitLogVersion = 1;
constexpr std::string_view kNoOffset = "-";

arrow::Result<simdjson::dom::element> ParseObject(simdjson::dom::parser& parser,
                                                  std::string_view text,
                                                  const std::string& path) {
  simdjson::dom::element root;
  if (parser.parse(text.data(), text.size()).get(root) != simdjson::SUCCESS ||
      !root.is_object()) {
    return MalformedLogFile(path, "'" + std::string(text) + "' is not a JSON object");
  }
  return root;
}

}  // namespace

std::string SerializeOffsetSeq(const OffsetSeq& seq) {
  std::string body = "{\"batchWatermarkMs\":" + std::to_string(seq.metadata.batch_watermark_ms) +
                     ",\"batchTimestampMs\":" + std::to_string(seq.metadata.batch_timestamp_ms) +
                     ",\"conf\":{";
  bool first = true;
  for (const auto& [key, value] : seq.metadata.conf) {
    if (!first) body += ',';
    first = false;
    AppendJsonString(key, &body);
    body += ':';
    AppendJsonString(value, &body);
  }
  body += "}}";
  for (const auto& offset : seq.offsets) {
    body += '\n';
    body += offset ? *offset : std::string(kNoOffset);
  }
  return WithVersionLine(kOffsetLogVersion, body);
}

arrow::Result<OffsetSeq> ParseOffsetSeq(std::string_view contents, const std::string& path) {
  ARROW_ASSIGN_OR_RAISE(auto lines, SplitVersionedLog(contents, kOffsetLogVersion, path));
  if (lines.empty()) return MalformedLogFile(path, "it has no metadata line");
  simdjson::dom::parser parser;
  ARROW_ASSIGN_OR_RAISE(auto root, ParseObject(parser, lines[0], path));
  OffsetSeq seq;
  int64_t number = 0;
  if (root["batchWatermarkMs"].get(number) == simdjson::SUCCESS) {
    seq.metadata.batch_watermark_ms = number;
  }
  if (root["batchTimestampMs"].get(number) == simdjson::SUCCESS) {
    seq.metadata.batch_timestamp_ms = number;
  }
  simdjson::dom::object conf;
  if (root["conf"].get(conf) == simdjson::SUCCESS) {
    for (auto member : conf) {
      std::string_view value;
      if (member.value.get(value) != simdjson::SUCCESS) {
        return MalformedLogFile(path, "the setting '" + std::string(member.key) +
                                          "' is not a string");
      }
      seq.metadata.conf.emplace_back(std::string(member.key), std::string(value));
    }
  }
  for (size_t i = 1; i < lines.size(); ++i) {
    if (lines[i] == kNoOffset) {
      seq.offsets.emplace_back(std::nullopt);
      continue;
    }
    simdjson::dom::element offset;
    if (parser.parse(lines[i].data(), lines[i].size()).get(offset) != simdjson::SUCCESS) {
      return MalformedLogFile(path, "the offset of source " + std::to_string(i - 1) + ", '" +
                                        std::string(lines[i]) + "', is not JSON");
    }
    seq.offsets.emplace_back(std::string(lines[i]));
  }
  return seq;
}

std::string SerializeCommitMetadata(const CommitMetadata& commit) {
  return WithVersionLine(kCommitLogVersion, "{\"nextBatchWatermarkMs\":" +
                                                std::to_string(commit.next_batch_watermark_ms) +
                                                "}");
}

arrow::Result<CommitMetadata> ParseCommitMetadata(std::string_view contents,
                                                  const std::string& path) {
  ARROW_ASSIGN_OR_RAISE(auto lines, SplitVersionedLog(contents, kCommitLogVersion, path));
  if (lines.empty()) return MalformedLogFile(path, "it has no commit line");
  simdjson::dom::parser parser;
  ARROW_ASSIGN_OR_RAISE(auto root, ParseObject(parser, lines[0], path));
  CommitMetadata commit;
  int64_t number = 0;
  if (root["nextBatchWatermarkMs"].get(number) == simdjson::SUCCESS) {
    commit.next_batch_watermark_ms = number;
  }
  return commit;
}

std::string SerializeQueryMetadata(const std::string& query_id) {
  std::string out = "{\"id\":";
  AppendJsonString(query_id, &out);
  out += "}";
  return out;
}

arrow::Result<std::string> ParseQueryMetadata(std::string_view contents,
                                              const std::string& path) {
  simdjson::dom::parser parser;
  ARROW_ASSIGN_OR_RAISE(auto root, ParseObject(parser, contents, path));
  std::string_view id;
  if (root["id"].get(id) != simdjson::SUCCESS || id.empty()) {
    return MalformedLogFile(path, "it has no query \"id\"");
  }
  return std::string(id);
}

}  // namespace sluice::checkpoint
