#include "sluice/sources/delta/delta_source_offset.h"

#include <simdjson.h>

#include "sluice/common/errors.h"
#include "sluice/common/json_writer.h"

namespace sluice::sources {

namespace {

constexpr int64_t kSourceVersion = 1;

}  // namespace

std::string DeltaSourceOffsetToJson(const DeltaSourceOffset& offset) {
  JsonWriter json(JsonWriter::Layout::kCompact);
  json.StartObject();
  json.Key("sourceVersion");
  json.Int(kSourceVersion);
  json.Key("reservoirId");
  json.String(offset.reservoir_id);
  json.Key("reservoirVersion");
  json.Int(offset.reservoir_version);
  json.Key("index");
  json.Int(offset.index);
  json.Key("isStartingVersion");
  json.Bool(offset.is_starting_version);
  json.EndObject();
  return std::move(json).TakeText();
}

arrow::Result<DeltaSourceOffset> ParseDeltaSourceOffset(std::string_view json,
                                                        const std::string& where) {
  auto invalid = [&](const std::string& problem) {
    return SparkError("DELTA_INVALID_SOURCE_OFFSET",
                      "The Delta source offset in " + where + " is not valid: " + problem +
                          ". Offset: " + std::string(json));
  };
  simdjson::dom::parser parser;
  simdjson::padded_string padded(json);
  simdjson::dom::object object;
  if (parser.parse(padded).get(object) != simdjson::SUCCESS) {
    return invalid("it is not a JSON object");
  }
  int64_t source_version = 0;
  if (object["sourceVersion"].get(source_version) != simdjson::SUCCESS) {
    return invalid("sourceVersion is missing");
  }
  if (source_version > kSourceVersion) {
    return SparkError("DELTA_INVALID_FORMAT_FROM_SOURCE_VERSION",
                      "The Delta source offset in " + where + " has sourceVersion " +
                          std::to_string(source_version) + "; this engine reads version 1. "
                          "Please upgrade.");
  }
  DeltaSourceOffset offset;
  std::string_view id;
  bool starting = false;
  if (object["reservoirId"].get(id) != simdjson::SUCCESS ||
      object["reservoirVersion"].get(offset.reservoir_version) != simdjson::SUCCESS ||
      object["index"].get(offset.index) != simdjson::SUCCESS ||
      object["isStartingVersion"].get(starting) != simdjson::SUCCESS) {
    return invalid("reservoirId, reservoirVersion, index and isStartingVersion are required");
  }
  offset.reservoir_id = std::string(id);
  offset.is_starting_version = starting;
  return offset;
}

}  // namespace sluice::sources
