#include "sluice/plan/relation.h"

#include <arrow/type.h>

namespace sluice::plan {

std::shared_ptr<const Relation> Relation::Make(std::shared_ptr<const DataSource> source,
                                               const AnalysisContext& context) {
  expr::AttributeList output;
  // Held here: a source may return a fresh schema, which must outlive the loop.
  const auto schema = source->schema();
  for (const auto& field : schema->fields()) {
    output.push_back({field->name(), field->type(), field->nullable(), context.ids->Next(), {}});
  }
  return std::make_shared<Relation>(std::move(source), std::move(output));
}

std::string Relation::Describe() const {
  return source_->Describe() + " [" + DescribeAttributes(output()) + "]";
}

}  // namespace sluice::plan
