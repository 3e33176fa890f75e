// libFuzzer target: any bytes read as a CSV file (with or without a header, multiLine, each
// parse mode) give rows or an error, never a crash, a hang or a sanitizer report. The first
// byte picks the options.
#include "fuzz/text_format_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sluice::fuzz::FuzzInput input(data, size);
  static const char* const kModes[] = {"PERMISSIVE", "DROPMALFORMED", "FAILFAST"};
  sluice::formats::OptionMap options = {
      {"mode", kModes[input.selector % 3]},
      {"header", (input.selector & 4) ? "true" : "false"},
      {"multiLine", (input.selector & 8) ? "true" : "false"},
      {"enforceSchema", (input.selector & 16) ? "true" : "false"},
      {"sep", (input.selector & 32) ? ";" : ","},
      {"escape", (input.selector & 64) ? "\"" : "\\"},
      {"comment", (input.selector & 128) ? "#" : ""},
  };
  sluice::fuzz::ReadTextFormat(
      sluice::formats::FileFormat::kCsv, options,
      "id BIGINT, name STRING, price DECIMAL(10,2), ok BOOLEAN, at TIMESTAMP, day DATE, "
      "score DOUBLE, small TINYINT, _corrupt_record STRING",
      input.text);
  return 0;
}
