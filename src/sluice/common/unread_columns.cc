#include "sluice/common/unread_columns.h"

#include <arrow/array/util.h>
#include <arrow/type.h>

namespace sluice {

arrow::Result<std::shared_ptr<arrow::Array>> UnreadColumns::Get(
    const std::shared_ptr<arrow::DataType>& type, int64_t rows) {
  for (auto& nulls : made_) {
    if (nulls->type() != type && !nulls->type()->Equals(*type)) continue;
    if (nulls->length() < rows) {
      ARROW_ASSIGN_OR_RAISE(nulls, arrow::MakeArrayOfNull(type, rows, pool_));
    }
    return nulls->Slice(0, rows);
  }
  ARROW_ASSIGN_OR_RAISE(auto nulls, arrow::MakeArrayOfNull(type, rows, pool_));
  made_.push_back(nulls);
  return nulls;
}

}  // namespace sluice
