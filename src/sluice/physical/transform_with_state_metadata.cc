#include "sluice/physical/transform_with_state_metadata.h"

#include <arrow/type.h>

#include "sluice/common/json_writer.h"

namespace sluice::physical {

const char* TimeModeName(plan::TimeMode mode) {
  switch (mode) {
    case plan::TimeMode::kNone: return "NoTime";
    case plan::TimeMode::kProcessingTime: return "ProcessingTime";
    case plan::TimeMode::kEventTime: return "EventTime";
  }
  return "NoTime";
}

std::string OperatorProperties(const plan::TransformWithState& node,
                               const std::vector<DeclaredVariable>& variables) {
  JsonWriter writer(JsonWriter::Layout::kCompact);
  writer.StartObject();
  writer.Key("timeMode");
  writer.String(TimeModeName(node.time_mode()));
  writer.Key("outputMode");
  writer.String(plan::OutputModeName(node.output_mode()));
  writer.Key("stateVariables");
  writer.StartArray();
  auto variable = [&](const std::string& name, const std::string& type, bool ttl) {
    writer.StartObject();
    writer.Key("stateName");
    writer.String(name);
    writer.Key("stateVariableType");
    writer.String(type);
    writer.Key("ttlEnabled");
    writer.Bool(ttl);
    writer.EndObject();
  };
  for (const auto& declared : variables) {
    const std::string type = declared.kind == "value" ? "ValueState"
                             : declared.kind == "list" ? "ListState"
                                                       : "MapState";
    variable(declared.name, type, declared.ttl);
  }
  if (node.time_mode() == plan::TimeMode::kEventTime) {
    variable("$eventTimers_keyToTimestamp", "TimerState", false);
  } else if (node.time_mode() == plan::TimeMode::kProcessingTime) {
    variable("$procTimers_keyToTimestamp", "TimerState", false);
  }
  writer.EndArray();
  writer.EndObject();
  return std::move(writer).TakeText();
}

state::StateOperatorInfo TransformWithStateInfo(const plan::TransformWithState& node,
                                                int64_t operator_id, int32_t num_partitions) {
  state::StateOperatorInfo info;
  info.operator_id = operator_id;
  info.operator_name = "transformWithStateExec";
  info.num_partitions = num_partitions;
  arrow::FieldVector keys = node.key_type()->fields();
  keys.push_back(arrow::field("expiryTimestampMs", arrow::int64(), false));
  info.stores.push_back({kTimersStore, arrow::schema(keys),
                         arrow::schema({arrow::field("__dummy__", arrow::null())})});
  return info;
}

}  // namespace sluice::physical
