// Reads a fuzzer's bytes as a file of a text format, through the same reader a query uses, to
// the last batch. Any outcome but a crash, a hang or a sanitizer report is fine.
#pragma once

#include <string>

#include <arrow/record_batch.h>

#include "fuzz/fuzz_input.h"
#include "sluice/formats/file_format.h"
#include "sluice/types/ddl_parser.h"

namespace sluice::fuzz {

inline void ReadTextFormat(formats::FileFormat format, const formats::OptionMap& options,
                           const std::string& ddl, std::string_view contents) {
  MemoryFile file(contents);
  if (!file.ok()) return;
  formats::FormatContext context;
  context.batch_rows = 64;  // several batches from small inputs
  auto reader = formats::MakeFormatReader(format, options, context);
  auto schema = types::ParseSchema(ddl);
  if (!reader.ok() || !schema.ok()) return;
  auto batches = (*reader)->OpenFile(file.path(), *schema);
  if (!batches.ok()) return;
  std::shared_ptr<arrow::RecordBatch> batch;
  while ((*batches)->ReadNext(&batch).ok() && batch != nullptr) {
    // Validation walks every buffer the decoder built.
    (void)batch->ValidateFull();
  }
}

}  // namespace sluice::fuzz
