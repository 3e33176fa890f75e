// libFuzzer target: any bytes given to the SQL statement parser must give a statement or an
// error, never a crash, a hang or a sanitizer report. Built and run by scripts/fuzz-sql-parser.sh.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sluice/sql/statement.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto statement = sluice::sql::ParseStatement(text);
  if (statement.ok()) {
    // Walking the tree touches every node the parser built.
    (void)(*statement)->kind;
  }
  return 0;
}
