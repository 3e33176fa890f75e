// libFuzzer target: any option strings given to the parsers of the sources', sinks' and file
// formats' options give typed options or an error naming the option, never a crash, a hang or
// a sanitizer report. The first byte picks the parser; the text holds "key=value" lines.
#include "fuzz/fuzz_input.h"
#include "sluice/common/durations.h"
#include "sluice/formats/format_options.h"
#include "sluice/sinks/file/file_sink_options.h"
#include "sluice/sinks/kafka/kafka_sink_options.h"
#include "sluice/sources/file/file_stream_options.h"
#include "sluice/sources/kafka/kafka_options.h"
#include "sluice/sources/rate/rate_options.h"
#include "sluice/sources/socket/socket_options.h"

namespace {

using sluice::formats::OptionMap;

OptionMap Options(std::string_view text) {
  OptionMap options;
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    size_t equals = line.find('=');
    if (equals != std::string_view::npos) {
      options[std::string(line.substr(0, equals))] = std::string(line.substr(equals + 1));
    }
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return options;
}

constexpr int kParsers = 19;

void Parse(uint8_t parser, std::string_view text) {
  namespace formats = sluice::formats;
  const OptionMap options = Options(text);
  switch (parser % kParsers) {
    case 0: (void)formats::ParseJsonReadOptions(options); break;
    case 1: (void)formats::ParseCsvReadOptions(options); break;
    case 2: (void)formats::ParseParquetReadOptions(options); break;
    case 3: (void)formats::ParseOrcReadOptions(options); break;
    case 4: (void)formats::ParseTextReadOptions(options); break;
    case 5: (void)formats::ParseJsonWriteOptions(options); break;
    case 6: (void)formats::ParseCsvWriteOptions(options); break;
    case 7: (void)formats::ParseParquetWriteOptions(options); break;
    case 8: (void)formats::ParseOrcWriteOptions(options); break;
    case 9: (void)formats::ParseTextWriteOptions(options); break;
    case 10: (void)sluice::sources::ParseFileStreamOptions(options); break;
    case 11: (void)sluice::sinks::ParseFileSinkOptions(options); break;
    case 12: (void)sluice::sources::kafka::ParseKafkaStreamOptions(options); break;
    case 13: (void)sluice::sources::kafka::ParseKafkaBatchOptions(options); break;
    case 14: (void)sluice::sinks::ParseKafkaSinkOptions(options); break;
    case 15: (void)sluice::sources::ParseRateOptions(options); break;
    case 16: (void)sluice::sources::ParseSocketOptions(options); break;
    case 17: (void)sluice::ParseIntervalMs(text, "interval"); break;
    case 18: (void)sluice::sources::ParseTimeStringAsMs(text); break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sluice::fuzz::FuzzInput input(data, size);
  Parse(input.selector, input.text);
  return 0;
}
