#include "sluice/expr/attribute.h"

#include <arrow/type.h>

namespace sluice::expr {

std::shared_ptr<arrow::Schema> ToSchema(const AttributeList& attributes) {
  arrow::FieldVector fields;
  fields.reserve(attributes.size());
  for (const auto& attribute : attributes) {
    fields.push_back(arrow::field(attribute.name, attribute.type, attribute.nullable));
  }
  return arrow::schema(std::move(fields));
}

}  // namespace sluice::expr
