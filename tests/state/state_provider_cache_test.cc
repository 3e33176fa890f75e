#include "sluice/state/state_provider_cache.h"

#include <filesystem>

#include <arrow/api.h>
#include <gtest/gtest.h>

#include "support/scratch_dir.h"

namespace sluice::state {
namespace {

namespace fs = std::filesystem;

StateStoreSchema Store(const std::string& name, std::shared_ptr<arrow::DataType> value_type) {
  StateStoreSchema store;
  store.store_name = name;
  store.key_schema = arrow::schema({arrow::field("key", arrow::utf8())});
  store.value_schema = arrow::schema({arrow::field("value", std::move(value_type))});
  return store;
}

StateOperatorInfo TransformWithState(std::vector<StateStoreSchema> stores) {
  StateOperatorInfo info;
  info.operator_id = 0;
  info.operator_name = "transformWithStateExec";
  info.num_partitions = 1;
  info.stores = std::move(stores);
  info.properties_json = R"({"timeMode":"None"})";
  return info;
}

// transformWithState records its variables every batch: the same ones are written or checked
// once per query start, a changed set again.
TEST(StateProviderCacheTest, RecordsTheSameOperatorMetadataOncePerQueryStart) {
  testing::ScratchDir dir;
  StateProviderCache cache(checkpoint::CheckpointPaths(dir.path()), nullptr);
  const std::string count_schema = dir / "state/0/0/count/_metadata/schema";
  const std::string total_schema = dir / "state/0/0/total/_metadata/schema";

  auto first = TransformWithState({Store("count", arrow::int64())});
  ASSERT_TRUE(cache.RecordOperatorMetadata(first).ok());
  ASSERT_TRUE(fs::exists(count_schema));

  // Unchanged: not written (nor read) again.
  fs::remove_all(dir / "state");
  ASSERT_TRUE(cache.RecordOperatorMetadata(first).ok());
  EXPECT_FALSE(fs::exists(count_schema));

  // A new variable: recorded, with the others.
  auto second = TransformWithState({Store("count", arrow::int64()), Store("total", arrow::int64())});
  ASSERT_TRUE(cache.RecordOperatorMetadata(second).ok());
  EXPECT_TRUE(fs::exists(count_schema));
  EXPECT_TRUE(fs::exists(total_schema));

  // A variable whose type changed is checked against what the checkpoint holds.
  auto changed = TransformWithState({Store("count", arrow::utf8()), Store("total", arrow::int64())});
  auto status = cache.RecordOperatorMetadata(changed);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE"), std::string::npos)
      << status.ToString();
}

}  // namespace
}  // namespace sluice::state
