// Trigger intervals as users write them, and the ones Spark refuses.
#include <gtest/gtest.h>

#include "sluice/execution/streaming_settings.h"
#include "sluice/execution/trigger.h"
#include "support/session_fixture.h"

namespace sluice::execution {
namespace {

TEST(TriggerParseTest, ProcessingTimeTakesIntervalTexts) {
  for (const auto& [text, ms] : std::vector<std::pair<std::string, int64_t>>{
           {"2 seconds", 2000}, {"1 minute", 60000}, {"interval 10 seconds", 10000},
           {"1 minute 30 seconds", 90000}, {"500 milliseconds", 500}, {"0 seconds", 0},
           {"1 hour", 3600000}, {"2 days", 172800000}}) {
    auto trigger = Trigger::ProcessingTime(text);
    ASSERT_TRUE(trigger.ok()) << text << ": " << trigger.status().ToString();
    EXPECT_EQ(trigger->interval_ms, ms) << text;
    EXPECT_EQ(trigger->kind, Trigger::Kind::kProcessingTime);
  }
}

TEST(TriggerParseTest, RefusesWhatSparkRefuses) {
  EXPECT_TRUE(testing::HasErrorClass(Trigger::ProcessingTime("").status(),
                                     "INVALID_INTERVAL_FORMAT.INPUT_IS_EMPTY"));
  EXPECT_TRUE(testing::HasErrorClass(Trigger::ProcessingTime("1 month").status(),
                                     "INVALID_INTERVAL_FORMAT.INVALID_UNIT"));
  EXPECT_TRUE(testing::HasErrorClass(Trigger::ProcessingTime("-5 seconds").status(),
                                     "INVALID_INTERVAL_FORMAT.INVALID_VALUE"));
  EXPECT_TRUE(testing::HasErrorClass(Trigger::ProcessingTime("5 fortnights").status(),
                                     "INVALID_INTERVAL_FORMAT.INVALID_UNIT"));
  EXPECT_EQ(Trigger::ProcessingTime(2000).ToString(), "ProcessingTimeTrigger(2000)");
  EXPECT_EQ(Trigger::Once().ToString(), "OneTimeTrigger");
  EXPECT_EQ(Trigger::AvailableNow().ToString(), "AvailableNowTrigger");
}

TEST(StreamingSettingsTest, TimeSettingsNameTheirKey) {
  SessionConfig config;
  ASSERT_TRUE(config.Set("spark.sql.streaming.pollingDelay", "25ms").ok());
  ASSERT_TRUE(config.Set("spark.sql.streaming.noDataProgressEventInterval", "2s").ok());
  auto settings = StreamingSettings::FromConfig(config);
  ASSERT_TRUE(settings.ok());
  EXPECT_EQ(settings->polling_delay_ms, 25);
  EXPECT_EQ(settings->no_data_progress_event_interval_ms, 2000);
  ASSERT_TRUE(config.Set("spark.sql.streaming.pollingDelay", "ten seconds").ok());
  auto bad = StreamingSettings::FromConfig(config);
  EXPECT_TRUE(testing::HasErrorClass(bad.status(), "INVALID_CONF_VALUE.TIME_STRING"));
  EXPECT_NE(bad.status().message().find("spark.sql.streaming.pollingDelay"), std::string::npos);
}

TEST(StreamingSettingsTest, TheStateStoreMaintenanceIntervalIsATimeSetting) {
  SessionConfig config;
  EXPECT_EQ(StreamingSettings::FromConfig(config)->state_store.maintenance_interval_ms, 60000)
      << "Spark's default";
  ASSERT_TRUE(config.Set("spark.sql.streaming.stateStore.maintenanceInterval", "5s").ok());
  EXPECT_EQ(StreamingSettings::FromConfig(config)->state_store.maintenance_interval_ms, 5000);
  ASSERT_TRUE(config.Set("spark.sql.streaming.stateStore.maintenanceInterval", "250").ok());
  EXPECT_EQ(StreamingSettings::FromConfig(config)->state_store.maintenance_interval_ms, 250)
      << "a plain number is in milliseconds";
  ASSERT_TRUE(config.Set("spark.sql.streaming.stateStore.maintenanceInterval", "soon").ok());
  auto bad = StreamingSettings::FromConfig(config);
  EXPECT_TRUE(testing::HasErrorClass(bad.status(), "INVALID_CONF_VALUE.TIME_STRING"));
  EXPECT_NE(bad.status().message().find("stateStore.maintenanceInterval"), std::string::npos);
  ASSERT_TRUE(config.Set("spark.sql.streaming.stateStore.maintenanceInterval", "-1s").ok());
  auto negative = StreamingSettings::FromConfig(config);
  EXPECT_TRUE(negative.status().IsInvalid()) << negative.status();
  EXPECT_NE(negative.status().message().find("stateStore.maintenanceInterval"),
            std::string::npos);
}

}  // namespace
}  // namespace sluice::execution
