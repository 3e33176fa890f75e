// What a checkpoint records about each stateful operator, in Spark's files and formats:
//
//   state/<op>/_metadata/metadata      "v1\n" + {"operatorInfo":{"operatorId":0,"operatorName":
//                                      "stateStoreSave"},"stateStoreInfo":[{"storeName":
//                                      "default","numColsPrefixKey":0,"numPartitions":5}]}
//                                      and, for transformWithState, Spark's version 2 field
//                                      "operatorPropertiesJson" (Spark itself writes that
//                                      operator's metadata as version 2, in _metadata/v2/<batch>)
//   state/<op>/0[/<store>]/_metadata/schema
//                                      the state schema of each store (the folder of a store
//                                      other than "default" is named after it), as Spark's StateSchemaCompatibility-
//                                      Checker writes version 2: Java DataOutputStream data,
//                                      writeUTF("v2"), then for the key schema and then the
//                                      value schema: an int32 number of chunks and each chunk
//                                      of its Spark JSON schema with writeUTF (a 2-byte length,
//                                      at most 65535 bytes per chunk). Column names are written
//                                      as UTF-8 (Java writes NUL and characters outside the
//                                      BMP in its modified form; such names are not expected).
//
// Both are written by the first run of the operator; later runs check the schema against
// them, so a restart whose keys or aggregates changed fails instead of misreading its state.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <arrow/result.h>
#include <arrow/status.h>
#include <arrow/type_fwd.h>

#include "sluice/checkpoint/checkpoint_paths.h"

namespace sluice::state {

/// One store of a stateful operator: its name and the layout of its rows, the key columns and
/// the value columns in the order the operator encodes them.
struct StateStoreSchema {
  std::string store_name = "default";
  std::shared_ptr<arrow::Schema> key_schema;
  std::shared_ptr<arrow::Schema> value_schema;
};

/// One stateful operator as the checkpoint records it.
struct StateOperatorInfo {
  int64_t operator_id = 0;
  /// Spark's name: stateStoreSave, dedupe, dedupeWithinWatermark, symmetricHashJoin, ...
  std::string operator_name;
  int32_t num_partitions = 1;
  /// Its stores: one "default" store for most operators, four for a stream-stream join, and
  /// the timers and one per state variable for transformWithState.
  std::vector<StateStoreSchema> stores;
  /// Spark's operatorPropertiesJson (transformWithState's modes and state variables); empty
  /// for the operators that have none.
  std::string properties_json;
};

/// On the operator's first run, writes its metadata and schema files; on later runs, reads
/// the schema files (writing those of stores it did not have before, and the metadata again
/// when its properties changed) and fails with STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE or
/// STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE (naming the operator and both schemas) when the
/// number or the types of the columns differ (names and nullability may change, as in
/// Spark). A damaged schema file fails naming the file.
arrow::Status WriteOrCheckOperatorMetadata(const checkpoint::CheckpointPaths& paths,
                                           const StateOperatorInfo& info);

/// The operator `operator_id` of the checkpoint at `paths` as its metadata and schema files
/// record it (the schemas as they were written, column names included). Fails with Spark's
/// STDS_* error classes, naming the file, when the operator or one of its files is missing or
/// damaged.
arrow::Result<StateOperatorInfo> ReadOperatorMetadata(const checkpoint::CheckpointPaths& paths,
                                                      int64_t operator_id);

/// The ids of the stateful operators recorded in the checkpoint at `paths`, in order.
arrow::Result<std::vector<int64_t>> ListStateOperators(const checkpoint::CheckpointPaths& paths);

/// The bytes of a schema file for `key_schema` and `value_schema` (see above).
std::string EncodeStateSchemaFile(const arrow::Schema& key_schema,
                                  const arrow::Schema& value_schema);

}  // namespace sluice::state
