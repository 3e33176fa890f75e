#include "sluice/types/ddl_writer.h"

#include <arrow/type.h>

#include "sluice/types/spark_type_names.h"
#include "sluice/types/spark_types.h"

namespace sluice::types {

std::string FieldToDdl(const arrow::Field& field) {
  std::string ddl = QuoteIfNeeded(field.name()) + " " + SqlString(*field.type());
  if (!field.nullable()) ddl += " NOT NULL";
  if (auto default_value = FieldCurrentDefault(field)) ddl += " DEFAULT " + *default_value;
  if (auto comment = FieldComment(field)) {
    ddl += " COMMENT '" + EscapeSingleQuotedString(*comment) + "'";
  }
  return ddl;
}

std::string ToDdl(const arrow::Schema& schema) {
  std::string ddl;
  for (int i = 0; i < schema.num_fields(); ++i) {
    if (i > 0) ddl += ",";
    ddl += FieldToDdl(*schema.field(i));
  }
  return ddl;
}

}  // namespace sluice::types
