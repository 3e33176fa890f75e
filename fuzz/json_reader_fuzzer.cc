// libFuzzer target: any bytes read as a JSON file (JSON Lines or multiLine, in each parse mode)
// into a schema of every kind of column give rows or an error, never a crash, a hang or a
// sanitizer report. The first byte picks the options.
#include "fuzz/text_format_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sluice::fuzz::FuzzInput input(data, size);
  static const char* const kModes[] = {"PERMISSIVE", "DROPMALFORMED", "FAILFAST"};
  sluice::formats::OptionMap options = {
      {"mode", kModes[input.selector % 3]},
      {"multiLine", (input.selector & 4) ? "true" : "false"},
      {"allowComments", (input.selector & 8) ? "true" : "false"},
      {"allowUnquotedFieldNames", (input.selector & 16) ? "true" : "false"},
      {"allowSingleQuotes", (input.selector & 32) ? "true" : "false"},
      {"allowNonNumericNumbers", (input.selector & 64) ? "true" : "false"},
  };
  sluice::fuzz::ReadTextFormat(
      sluice::formats::FileFormat::kJson, options,
      "id BIGINT, name STRING, price DECIMAL(10,2), ok BOOLEAN, at TIMESTAMP, day DATE, "
      "score DOUBLE, small TINYINT, raw BINARY, tags ARRAY<STRING>, "
      "info STRUCT<a: INT, b: ARRAY<STRUCT<c: DOUBLE>>>, m MAP<STRING, INT>, "
      "_corrupt_record STRING",
      input.text);
  return 0;
}
