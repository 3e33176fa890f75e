// The layout of a stream-stream join's state, apart from the join that runs over it: what the
// operator metadata and the state reader describe.
#include "sluice/physical/streaming_join.h"

#include <arrow/type.h>

#include "sluice/expr/attribute.h"
#include "sluice/plan/join_state_eviction.h"

namespace sluice::physical {

namespace {

arrow::FieldVector KeyFields(const std::vector<expr::BoundExprPtr>& keys) {
  arrow::FieldVector fields;
  for (size_t k = 0; k < keys.size(); ++k) {
    fields.push_back(
        arrow::field("field" + std::to_string(k), keys[k]->type(), keys[k]->nullable()));
  }
  return fields;
}

}  // namespace

std::string StreamingJoinStoreName(int side, bool values) {
  return std::string(side == 0 ? "left" : "right") +
         (values ? "-keyWithIndexToValue" : "-keyToNumValues");
}

state::StateOperatorInfo StreamingJoinStateInfo(const plan::Join& join, int64_t operator_id,
                                                int32_t num_partitions) {
  state::StateOperatorInfo info;
  info.operator_id = operator_id;
  info.operator_name = "symmetricHashJoin";
  info.num_partitions = num_partitions;
  for (int side : {0, 1}) {
    arrow::FieldVector keys = KeyFields(side == 0 ? join.left_keys() : join.right_keys());
    info.stores.push_back({StreamingJoinStoreName(side, false), arrow::schema(keys),
                           arrow::schema({arrow::field("value", arrow::int64(), false)})});
    arrow::FieldVector indexed = keys;
    indexed.push_back(arrow::field("index", arrow::int64(), false));
    arrow::FieldVector values = expr::ToSchema(join.children()[side]->output())->fields();
    values.push_back(arrow::field("matched", arrow::boolean(), false));
    info.stores.push_back({StreamingJoinStoreName(side, true), arrow::schema(indexed),
                           arrow::schema(values)});
  }
  return info;
}

bool StreamingJoinActsOnWatermark(const plan::Join& join) {
  using plan::JoinSide;
  using plan::JoinStateEviction;
  return plan::StateEvictionOf(join, JoinSide::kLeft).kind != JoinStateEviction::Kind::kNever ||
         plan::StateEvictionOf(join, JoinSide::kRight).kind != JoinStateEviction::Kind::kNever;
}

}  // namespace sluice::physical
