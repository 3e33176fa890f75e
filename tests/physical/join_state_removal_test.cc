// A join's eviction split for several threads (its store scanned in parts, its keys planned in
// groups) takes out what the eviction in one piece takes out: the same rows kept at the same
// indexes, the same counts, the same unmatched rows emitted.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <arrow/type.h>
#include <gtest/gtest.h>

#include "sluice/checkpoint/checkpoint_paths.h"
#include "sluice/physical/join_state_removal.h"
#include "sluice/physical/state_row_bytes.h"
#include "sluice/state/state_store_provider_factory.h"
#include "support/scratch_dir.h"
#include "support/state_store_entries.h"

namespace sluice::physical {
namespace {

using Contents = testing::StoreEntries;

struct Evicted {
  Contents counts;
  Contents values;
  std::vector<std::string> unmatched;  // sorted
  int64_t removed = 0;
};

class JoinStateRemovalTest : public ::testing::Test {
 protected:
  std::unique_ptr<state::StateStoreProvider> NewProvider(const std::string& name) {
    state::StateStoreConf conf;
    conf.provider_class = state::kHdfsBackedProviderClass;
    if (!factory_) factory_ = state::StateStoreProviderFactory::Make(conf).ValueOrDie();
    const state::StateStoreId id{0, 0, name};
    return factory_
        ->MakeProvider(state::StateStoreFolder(checkpoint::CheckpointPaths(scratch_.path()), id),
                       id)
        .ValueOrDie();
  }

  /// A side keyed by a bigint whose rows are (bigint, timestamp): key k keeps 1 + k % 7 rows,
  /// row i of it at time (31 k + 17 i) % 100 µs, every third matched. Rows at or below
  /// 50 µs are evicted by their time, in `parts` (and as many groups of keys).
  Evicted Evict(int parts) {
    const std::string name = std::to_string(parts);
    auto counts_provider = NewProvider("counts-" + name);
    auto values_provider = NewProvider("values-" + name);
    std::vector<SideStores> stores(1);
    stores[0] = {counts_provider->GetStore(0).ValueOrDie(),
                 values_provider->GetStore(0).ValueOrDie()};
    for (int64_t k = 0; k < 3000; ++k) {
      const std::string key = EncodeLong(k);
      const int64_t rows = 1 + k % 7;
      EXPECT_TRUE(stores[0].counts->Put(key, EncodeLong(rows)).ok());
      for (int64_t i = 0; i < rows; ++i) {
        EncodedRows indexed, value;
        AppendIndexedKey(key, i, &indexed);
        std::string row;
        AppendLong(k * 10 + i, &row);
        AppendLong((31 * k + 17 * i) % 100, &row);
        AppendKeptRow(row, (k + i) % 3 == 0, &value);
        EXPECT_TRUE(stores[0].values->Put(indexed.row(0), value.row(0)).ok());
      }
    }
    const std::vector<std::shared_ptr<arrow::DataType>> row_types{
        arrow::int64(), arrow::timestamp(arrow::TimeUnit::MICRO)};
    const std::vector<std::shared_ptr<arrow::DataType>> key_types{arrow::int64()};
    plan::JoinStateEviction eviction;
    eviction.kind = plan::JoinStateEviction::Kind::kByValue;
    eviction.value_column = 1;
    const RemovedSide side{"counts", "values", &row_types, &key_types, eviction,
                           /*preserved=*/true};
    RemovalBuffers buffers;
    std::vector<EncodedRows> unmatched;
    Evicted evicted;
    EXPECT_TRUE(RemoveExpiredRows(side, 50, stores, {&buffers}, parts, &unmatched,
                                  &evicted.removed)
                    .ok());
    EXPECT_EQ(unmatched.size(), static_cast<size_t>(parts));  // a list per group
    evicted.counts = testing::ReadAll(*stores[0].counts);
    evicted.values = testing::ReadAll(*stores[0].values);
    for (const EncodedRows& rows : unmatched) {
      for (int64_t r = 0; r < rows.size(); ++r) evicted.unmatched.emplace_back(rows.row(r));
    }
    std::sort(evicted.unmatched.begin(), evicted.unmatched.end());
    return evicted;
  }

  testing::ScratchDir scratch_;
  std::unique_ptr<state::StateStoreProviderFactory> factory_;
};

TEST_F(JoinStateRemovalTest, AnEvictionInPartsTakesOutWhatOneInOnePieceDoes) {
  const Evicted whole = Evict(1);
  // The rows kept are those after the watermark, under their keys' counts.
  int64_t kept = 0, expired = 0, expired_unmatched = 0;
  for (int64_t k = 0; k < 3000; ++k) {
    for (int64_t i = 0; i < 1 + k % 7; ++i) {
      const bool gone = (31 * k + 17 * i) % 100 <= 50;
      (gone ? expired : kept) += 1;
      if (gone && (k + i) % 3 != 0) ++expired_unmatched;
    }
  }
  ASSERT_EQ(static_cast<int64_t>(whole.values.size()), kept);
  EXPECT_EQ(whole.removed, expired);
  EXPECT_EQ(static_cast<int64_t>(whole.unmatched.size()), expired_unmatched);
  int64_t counted = 0;
  for (const auto& [key, count] : whole.counts) counted += ReadLong(count);
  EXPECT_EQ(counted, kept);
  for (int parts : {2, 3}) {
    const Evicted split = Evict(parts);
    EXPECT_EQ(split.values, whole.values) << parts << " parts";
    EXPECT_EQ(split.counts, whole.counts) << parts << " parts";
    EXPECT_EQ(split.unmatched, whole.unmatched) << parts << " parts";
    EXPECT_EQ(split.removed, whole.removed) << parts << " parts";
  }
}

}  // namespace
}  // namespace sluice::physical
